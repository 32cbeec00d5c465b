/** Commit messages: validated subject, attribution and typed prefixes dropped, `[id8] ` added. */
import { describe, expect, it } from 'vitest';
import { prepareCommitMessage } from './commit-message.js';

const TASK = 'abcdef12-3456-4789-8abc-def012345678';

describe('prepareCommitMessage', () => {
  it('prefixes the subject with the short task id and keeps the body', () => {
    expect(prepareCommitMessage('Add the login rate limiter\n\nFive tries a minute.', TASK)).toEqual({
      ok: true,
      subject: '[abcdef12] Add the login rate limiter',
      message: '[abcdef12] Add the login rate limiter\n\nFive tries a minute.\n',
    });
  });

  it('replaces a prefix the agent typed itself and drops AI attribution lines', () => {
    const raw = [
      '[abcdef12] [F-1234] feat: add the login rate limiter',
      '',
      'Body line.',
      '',
      '🤖 Generated with [Claude Code](https://claude.ai/code)',
      'Co-Authored-By: Claude <noreply@anthropic.com>',
    ].join('\n');
    const prepared = prepareCommitMessage(raw, TASK);
    expect(prepared).toEqual({
      ok: true,
      subject: '[abcdef12] feat: add the login rate limiter',
      message: '[abcdef12] feat: add the login rate limiter\n\nBody line.\n',
    });
  });

  it.each([
    ['an empty message', '', 'commit_message_empty'],
    ['blank lines', '   \n\n', 'commit_message_empty'],
    ['a short subject', 'Fix the bug', 'commit_message_too_short'],
    ['a short subject behind a prefix', '[abcdef12] short', 'commit_message_too_short'],
    ['repeated wip', 'wip wip wip wip wip wip wip', 'commit_message_meaningless'],
    ['only filler words', 'fix: update, changes and stuff!', 'commit_message_meaningless'],
    ['a 201-character subject', 'x'.repeat(201), 'commit_message_too_long'],
    [
      'a 10,001-character body',
      `A long enough subject line\n\n${'y'.repeat(10_001)}`,
      'commit_message_too_long',
    ],
  ])('refuses %s', (_label, raw, code) => {
    const prepared = prepareCommitMessage(raw, TASK);
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) expect(prepared.problem.code).toBe(code);
  });
});
