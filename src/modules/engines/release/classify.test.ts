import { describe, expect, it } from 'vitest';
import { type ChangeKind, classifyCommit } from './classify.js';

const commit = (message: string) => {
  const [subject = '', ...rest] = message.split('\n');
  return { sha: 'abcdef0123456789', subject, body: rest.join('\n').trim() };
};

describe('classifyCommit over real-world messages', () => {
  const table: Array<[string, ChangeKind, boolean, string, boolean?]> = [
    ['feat: add the release manager', 'feat', false, 'add the release manager'],
    ['feat(api): expose /api/release/proposal (#412)', 'feat', false, 'expose /api/release/proposal (#412)'],
    ['fix(parser): handle empty input', 'fix', false, 'handle empty input'],
    ['fix!: drop the v1 token format', 'fix', true, 'drop the v1 token format'],
    ['feat(auth)!: sessions replace bearer tokens', 'feat', true, 'sessions replace bearer tokens'],
    [
      'refactor: new config loader\n\nBREAKING CHANGE: GAFFER_PORT is now required',
      'refactor',
      true,
      'new config loader',
    ],
    ['feat: x\n\nBREAKING-CHANGE: the hyphenated footer counts too', 'feat', true, 'x'],
    [
      'Revert "feat: add dark mode"\n\nThis reverts commit 1234567890abcdef.',
      'fix',
      false,
      'Revert "feat: add dark mode"',
    ],
    ['revert: feat(ui): new kanban', 'fix', false, 'revert: feat(ui): new kanban'],
    ['security: bump cryptography to 42.0.4', 'security', false, 'bump cryptography to 42.0.4'],
    [
      'fix(security): forwarded LAN addresses no longer ride the whitelist',
      'security',
      false,
      'forwarded LAN addresses no longer ride the whitelist',
    ],
    ['perf(db): batch the claim statement', 'perf', false, 'batch the claim statement'],
    ['docs: README routes table', 'docs', false, 'README routes table'],
    ['chore(deps): bump vitest from 2.1.0 to 2.1.1', 'chore', false, 'bump vitest from 2.1.0 to 2.1.1'],
    [
      'build(deps-dev): bump typescript from 5.5.4 to 5.6.2 (#88)',
      'chore',
      false,
      'bump typescript from 5.5.4 to 5.6.2 (#88)',
    ],
    ['ci: cache node_modules', 'chore', false, 'cache node_modules'],
    ['test: cover the pause expiry', 'chore', false, 'cover the pause expiry'],
    ['style: biome format', 'chore', false, 'biome format'],
    ['chore(release): 0.29.0', 'chore', false, '0.29.0'],
    ['Feat: capitalised type still counts', 'feat', false, 'capitalised type still counts'],
    ['Update README.md', 'other', false, 'Update README.md', true],
    ["Merge branch 'dev' into staging", 'other', false, "Merge branch 'dev' into staging", true],
    ['wip: half a thing', 'other', false, 'wip: half a thing', true],
    ['fixed the build', 'other', false, 'fixed the build', true],
    [
      'feat:missing space is not conventional',
      'other',
      false,
      'feat:missing space is not conventional',
      true,
    ],
    [
      'docs: mention breaking change handling\n\nThis text talks about a breaking change but has no footer.',
      'docs',
      false,
      'mention breaking change handling',
    ],
  ];

  it.each(table)('%j → %s (breaking %s)', (message, kind, breaking, summary, needsManual = false) => {
    const classified = classifyCommit(commit(message));
    expect(classified.kind).toBe(kind);
    expect(classified.breaking).toBe(breaking);
    expect(classified.summary).toBe(summary);
    expect(classified.needsManual).toBe(needsManual);
  });

  it('reads the scope and the pull request number', () => {
    const classified = classifyCommit(commit('feat(kanban): drag cards between columns (#1234)'));
    expect(classified.scope).toBe('kanban');
    expect(classified.pr).toBe(1234);
    expect(classifyCommit(commit('fix: no number')).pr).toBeNull();
  });
});
