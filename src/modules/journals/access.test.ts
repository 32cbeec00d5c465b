import { describe, expect, it } from 'vitest';
import { mayReadJournal, readScope } from './access.js';

const agent = (id: string, role: string, team: string | null) => ({ id, role, team });
const ceo = agent('ceo', 'ceo', 'board');
const auditor = agent('aud', 'auditor', 'board');
const bePm = agent('be-pm', 'cell_pm', 'backend');
const beDev = agent('be-dev', 'developer', 'backend');
const feDev = agent('fe-dev', 'developer', 'frontend');
const po = agent('po', 'product_owner', 'board');

describe('journal read tiers', () => {
  it('always lets authors read their own', () => {
    for (const a of [ceo, auditor, bePm, beDev, po]) expect(mayReadJournal(a, a)).toBe(true);
  });

  it('keeps the CEO’s and the auditor’s journals to the two of them', () => {
    expect(mayReadJournal(auditor, ceo)).toBe(true);
    expect(mayReadJournal(ceo, auditor)).toBe(true);
    for (const reader of [bePm, beDev, po, agent('mp', 'main_pm', 'main_pm')]) {
      expect(mayReadJournal(reader, ceo)).toBe(false);
      expect(mayReadJournal(reader, auditor)).toBe(false);
    }
  });

  it('lets a PM read their own team only, and everyone else only themselves', () => {
    expect(mayReadJournal(bePm, beDev)).toBe(true);
    expect(mayReadJournal(bePm, feDev)).toBe(false);
    expect(mayReadJournal(beDev, bePm)).toBe(false);
    expect(mayReadJournal(po, beDev)).toBe(false);
    expect(mayReadJournal(ceo, feDev)).toBe(true);
    expect(readScope(auditor)).toEqual({ kind: 'all' });
    expect(readScope(bePm)).toEqual({ kind: 'team', team: 'backend' });
    expect(readScope(po)).toEqual({ kind: 'own' });
  });
});
