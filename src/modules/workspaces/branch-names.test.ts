/** Task branch names: type/team/segments of the ancestry, root first, 8 characters each. */
import { describe, expect, it } from 'vitest';
import { id8, taskBranchName } from './branch-names.js';

const ROOT = '1a2b3c4d-0000-4000-8000-000000000001';
const CELL = '5e6f7a8b-0000-4000-8000-000000000002';
const LEAF = '9c0d1e2f-0000-4000-8000-000000000003';

describe('taskBranchName', () => {
  it('names a main-PM root by its own short id', () => {
    expect(taskBranchName({ team: 'main_pm', chain: [ROOT] })).toBe('feature/main_pm/1a2b3c4d');
  });

  it('names a developer leaf by its ancestry, root first, under its own team', () => {
    expect(taskBranchName({ team: 'backend', chain: [ROOT, CELL, LEAF] })).toBe(
      'feature/backend/1a2b3c4d--5e6f7a8b--9c0d1e2f',
    );
  });

  it('keeps the last four levels and takes another branch type', () => {
    const five = [ROOT, CELL, LEAF, ROOT, CELL];
    expect(taskBranchName({ team: 'ux_ui', chain: five, type: 'hotfix' })).toBe(
      'hotfix/ux_ui/5e6f7a8b--9c0d1e2f--1a2b3c4d--5e6f7a8b',
    );
  });

  it('refuses an empty chain, a bad team or an id that is not one', () => {
    expect(() => taskBranchName({ team: 'backend', chain: [] })).toThrow();
    expect(() => taskBranchName({ team: '../x', chain: [ROOT] })).toThrow();
    expect(() => taskBranchName({ team: 'backend', chain: ['not-a-uuid'] })).toThrow();
  });
});

describe('id8', () => {
  it('is the first 8 characters, lowercased', () => {
    expect(id8('ABCDEF12-0000-4000-8000-000000000000')).toBe('abcdef12');
  });
});
