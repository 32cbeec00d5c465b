/** Work-session rules: branch names, file lists, merging files, who may work a session. */
import { describe, expect, it } from 'vitest';
import {
  fileListProblems,
  isCommitHash,
  managesSessions,
  mergeFiles,
  ownsWork,
  sessionAgentFor,
} from './rules.js';

describe('isCommitHash', () => {
  it('is 7 to 40 hex characters', () => {
    expect(isCommitHash('abc1234')).toBe(true);
    expect(isCommitHash('A'.repeat(40))).toBe(true);
    expect(isCommitHash('abc123')).toBe(false);
    expect(isCommitHash('a'.repeat(41))).toBe(false);
    expect(isCommitHash('abcdefg')).toBe(false);
  });
});

describe('fileListProblems', () => {
  it('names each bad path by its index', () => {
    expect(fileListProblems(['src/a.ts', '../x', '/etc/passwd', './ok.ts', ' '], 'body.files')).toEqual([
      { field: 'body.files[1]', message: 'must not contain a .. segment' },
      { field: 'body.files[2]', message: 'must be repo-relative' },
      { field: 'body.files[4]', message: 'must not be empty' },
    ]);
  });

  it('caps the list', () => {
    expect(fileListProblems(Array(1001).fill('a.ts'), 'f')).toEqual([
      { field: 'f', message: expect.any(String) },
    ]);
  });
});

describe('mergeFiles', () => {
  it('keeps what was recorded and adds new paths once, in first-seen order', () => {
    expect(mergeFiles(['a.ts', 'b.ts'], ['b.ts', './c.ts', 'c.ts', ' a.ts ', 'd.ts'])).toEqual([
      'a.ts',
      'b.ts',
      'c.ts',
      'd.ts',
    ]);
    expect(mergeFiles([], [])).toEqual([]);
  });
});

describe('who may work a session', () => {
  const task = { assignedTo: 'dev-1', activeClaimantId: 'qa-1' };

  it('the CEO, PMs and the system manage any session', () => {
    for (const role of ['ceo', 'main_pm', 'cell_pm', 'system'] as const) {
      expect(managesSessions({ role, agentId: null })).toBe(true);
    }
    expect(managesSessions({ role: 'developer', agentId: 'dev-1' })).toBe(false);
  });

  it('the assignee, the active claimant and the session’s agent own the work', () => {
    expect(ownsWork({ role: 'developer', agentId: 'dev-1' }, task)).toBe(true);
    expect(ownsWork({ role: 'qa', agentId: 'qa-1' }, task)).toBe(true);
    expect(ownsWork({ role: 'developer', agentId: 'dev-2' }, task)).toBe(false);
    expect(ownsWork({ role: 'developer', agentId: 'dev-2' }, task, 'dev-2')).toBe(true);
    expect(ownsWork({ role: 'developer', agentId: null }, { assignedTo: null, activeClaimantId: null })).toBe(
      false,
    );
  });

  it('a new session belongs to the one asked for, the owning actor, the claimant, the assignee, the actor', () => {
    expect(sessionAgentFor('x', { role: 'ceo', agentId: 'ceo' }, task)).toBe('x');
    expect(sessionAgentFor(undefined, { role: 'developer', agentId: 'dev-1' }, task)).toBe('dev-1');
    expect(sessionAgentFor(undefined, { role: 'ceo', agentId: 'ceo' }, task)).toBe('qa-1');
    expect(sessionAgentFor(undefined, undefined, { assignedTo: 'dev-1', activeClaimantId: null })).toBe(
      'dev-1',
    );
    expect(
      sessionAgentFor(
        undefined,
        { role: 'cell_pm', agentId: 'pm' },
        { assignedTo: null, activeClaimantId: null },
      ),
    ).toBe('pm');
    expect(sessionAgentFor(undefined, undefined, { assignedTo: null, activeClaimantId: null })).toBeNull();
  });
});
