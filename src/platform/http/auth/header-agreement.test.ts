import { describe, expect, it } from 'vitest';
import {
  type ClaimedIdentity,
  headersAgree,
  type RosterIdentity,
  staticSubjects,
} from './header-agreement.js';
import { CEO_ID } from './identity.js';

const ceo: RosterIdentity = { id: CEO_ID, slug: 'ceo', role: 'ceo', team: 'board' };
const dev: RosterIdentity = {
  id: '00000000-0000-0000-0001-000000000001',
  slug: 'be-dev-1',
  role: 'developer',
  team: 'backend',
};
const claim = (fields: Partial<ClaimedIdentity>): ClaimedIdentity => ({
  id: undefined,
  role: undefined,
  team: undefined,
  ...fields,
});

describe('staticSubjects', () => {
  it('the bare CEO token: the CEO by UUID or slug, no team or the roster team', () => {
    expect(staticSubjects(claim({}), ceo)).toEqual([
      { id: CEO_ID, role: 'ceo', team: '' },
      { id: CEO_ID, role: 'ceo', team: 'board' },
      { id: 'ceo', role: 'ceo', team: '' },
      { id: 'ceo', role: 'ceo', team: 'board' },
    ]);
  });

  it('a slug with no role: the roster role; a sent team that is the roster team may stand for none', () => {
    expect(staticSubjects(claim({ id: 'BE-DEV-1', team: 'Backend' }), dev)).toEqual([
      { id: 'be-dev-1', role: 'developer', team: 'backend' },
      { id: 'be-dev-1', role: 'developer', team: '' },
      { id: dev.id, role: 'developer', team: 'backend' },
      { id: dev.id, role: 'developer', team: '' },
    ]);
  });

  it('a sent role and a team other than the roster team are kept as sent', () => {
    expect(staticSubjects(claim({ id: dev.id, role: 'qa', team: 'frontend' }), dev)).toEqual([
      { id: dev.id, role: 'qa', team: 'frontend' },
      { id: 'be-dev-1', role: 'qa', team: 'frontend' },
    ]);
  });
});

describe('headersAgree (expiring tokens)', () => {
  const subject = { id: dev.id, role: 'developer', team: 'backend' };

  it.each([
    ['no headers', claim({})],
    ['the UUID', claim({ id: dev.id.toUpperCase() })],
    ['the slug, role and team', claim({ id: 'be-dev-1', role: 'developer', team: 'backend' })],
  ])('agree: %s', (_, claimed) => expect(headersAgree(claimed, subject, dev)).toBe(true));

  it.each([
    ['another slug', claim({ id: 'be-dev-2' })],
    ['another role', claim({ id: 'be-dev-1', role: 'qa' })],
    ['another team', claim({ team: 'frontend' })],
  ])('disagree: %s', (_, claimed) => expect(headersAgree(claimed, subject, dev)).toBe(false));

  it('the CEO login token (no team) agrees with the roster team; without the roster only exact headers do', () => {
    const ceoSubject = { id: CEO_ID, role: 'ceo', team: '' };
    expect(headersAgree(claim({ id: 'ceo', team: 'board' }), ceoSubject, ceo)).toBe(true);
    expect(headersAgree(claim({ id: 'ceo' }), ceoSubject, null)).toBe(false);
    expect(headersAgree(claim({ id: CEO_ID }), ceoSubject, null)).toBe(true);
  });
});
