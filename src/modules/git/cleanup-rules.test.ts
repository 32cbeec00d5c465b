import { describe, expect, it } from 'vitest';
import {
  cleanupScope,
  cleanupSkipReason,
  decodeCleanupCursor,
  encodeCleanupCursor,
} from './cleanup-rules.js';

describe('cleanupScope', () => {
  it('lets the CEO and the main PM sweep every task, a cell PM only its own cell', () => {
    expect(cleanupScope({ role: 'ceo', team: '' }, 'frontend')).toEqual({ team: null });
    expect(cleanupScope({ role: 'main_pm', team: 'main_pm' }, null)).toEqual({ team: null });
    expect(cleanupScope({ role: 'cell_pm', team: 'backend' }, null)).toEqual({ team: 'backend' });
    expect(cleanupScope({ role: 'cell_pm', team: 'backend' }, 'backend')).toEqual({ team: 'backend' });
  });

  it('refuses other roles, a cell PM without a cell and a project of another cell', () => {
    expect(cleanupScope({ role: 'developer', team: 'backend' }, null)).toHaveProperty('problem');
    expect(cleanupScope({ role: 'cell_pm', team: '' }, null)).toHaveProperty('problem');
    expect(cleanupScope({ role: 'cell_pm', team: 'backend' }, 'frontend')).toEqual({
      problem: 'a cell PM of backend may not clean up branches of a project of the frontend cell',
    });
  });
});

describe('cleanupSkipReason', () => {
  const kept = new Set(['main', 'staging', 'release']);
  const base = { branch: 'feature/x', protectedBranches: kept, branchInUse: false, hasOpenChild: false };

  it('lets an unprotected branch of a finished task go', () => {
    expect(cleanupSkipReason(base)).toBeNull();
  });

  it('keeps protected branches, branches in use, branches an open child builds on, and project-less tasks', () => {
    expect(cleanupSkipReason({ ...base, branch: 'staging' })).toBe('protected_branch');
    expect(cleanupSkipReason({ ...base, branchInUse: true })).toBe('branch_in_use');
    expect(cleanupSkipReason({ ...base, hasOpenChild: true })).toBe('open_child_task');
    expect(cleanupSkipReason({ ...base, protectedBranches: null })).toBe('no_project');
  });
});

describe('cleanup cursor', () => {
  const cursor = { updatedAt: '2024-05-01T12:34:56.123456Z', id: '0b7c7e1e-6a3e-4e5c-9a51-2f0d7c1d2e3f' };

  it('round-trips', () => {
    expect(decodeCleanupCursor(encodeCleanupCursor(cursor))).toEqual(cursor);
  });

  it('refuses what it did not hand out', () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    expect(decodeCleanupCursor('not a cursor!')).toBeNull();
    expect(decodeCleanupCursor(forged({ updatedAt: cursor.updatedAt, id: cursor.id }))).toBeNull();
    expect(decodeCleanupCursor(forged([cursor.updatedAt, 'task-1']))).toBeNull();
    expect(decodeCleanupCursor(forged(['yesterday', cursor.id]))).toBeNull();
    expect(decodeCleanupCursor(forged(['2024-02-30T00:00:00.000000Z', cursor.id]))).toBeNull();
    expect(decodeCleanupCursor(Buffer.from('{oops').toString('base64url'))).toBeNull();
  });
});
