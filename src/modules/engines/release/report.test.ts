import { describe, expect, it } from 'vitest';
import { classifyCommits } from './classify.js';
import type { GateVerdict } from './gate.js';
import { assessReadiness, reportDescription } from './report.js';
import type { ReadinessSnapshot } from './snapshot-types.js';

const GREEN: GateVerdict = {
  state: 'green',
  conclusion: 'success',
  sha: 'f'.repeat(40),
  runUrl: 'https://ci/1',
  detail: '',
};
const RED: GateVerdict = {
  state: 'red',
  conclusion: 'failure',
  sha: 'f'.repeat(40),
  runUrl: null,
  detail: 'CI of dev at ffffffff is failure',
};

function snapshot(subjects: string[], overrides: Partial<ReadinessSnapshot> = {}): ReadinessSnapshot {
  const commits = [...subjects]
    .reverse()
    .map((subject, index) => ({ sha: `${index}`.padStart(40, '0'), subject, body: '' }));
  return {
    headBranch: 'dev',
    prodBranch: 'prod',
    headSha: 'f'.repeat(40),
    lastTag: 'v0.29.0',
    commits, // newest first, as git log lists them
    changes: classifyCommits([...commits].reverse()),
    currentVersion: '0.29.0',
    manifestVersion: '0.29.0',
    previousReleaseFiles: ['CHANGELOG.md', 'package.json'],
    filesWithVersion: ['CHANGELOG.md', 'README.md', 'package.json'],
    changelogText: '# Changelog\n\n## [Unreleased]\n\n## [0.29.0] - 2026-08-21\n- x\n',
    docMentions: [],
    migrationChains: [],
    ...overrides,
  };
}

const options = { minCommits: 3, allowMajorFromZero: false, today: '2026-09-01' };

describe('assessReadiness', () => {
  it('proposes past the threshold with a green gate, with the report the CEO reads', () => {
    const readiness = assessReadiness(
      snapshot(['fix: one', 'feat(api): two (#7)', 'chore: three']),
      GREEN,
      options,
    );
    expect(readiness.propose).toBe(true);
    const report = readiness.report!;
    expect(report).toMatchObject({
      version: '0.30.0',
      tag: 'v0.30.0',
      current_version: '0.29.0',
      bump: 'minor',
      commit_count: 3,
      changelog_source: 'generated',
      canonical_files: ['CHANGELOG.md', 'package.json'],
      gate: { state: 'green', conclusion: 'success' },
    });
    expect(report.changes).toEqual([
      { kind: 'feat', count: 1, items: ['two (#7)'] },
      { kind: 'fix', count: 1, items: ['one'] },
      { kind: 'chore', count: 1, items: ['three'] },
    ]);
    expect(report.changelog_entry).toBe(
      '## [0.30.0] - 2026-09-01\n\n### Added\n\n- **api:** two (#7)\n\n### Fixed\n\n- one\n\n### Changed\n\n- three\n',
    );
    expect(report.gaps).toEqual([
      {
        category: 'version_ref',
        detail:
          'README.md holds 0.29.0 but is not in the canonical file set (the files of the previous chore(release) commit)',
      },
    ]);
    const text = reportDescription(report);
    expect(text).toContain('Proposed release 0.30.0 (minor bump from 0.29.0, tag v0.30.0).');
    expect(text).toContain('Rule applied: new feature, nothing breaking: minor bump.');
    expect(text).toContain('- [version_ref] README.md holds 0.29.0');
    expect(text).toContain('### Added');
  });

  it('does not propose below the threshold, on a gate that is not green, or without a version', () => {
    const below = assessReadiness(snapshot(['fix: one', 'docs: two']), GREEN, options);
    expect(below).toMatchObject({
      propose: false,
      reason: expect.stringMatching(/below the threshold of 3/),
    });
    const red = assessReadiness(snapshot(['feat: big']), RED, options);
    expect(red).toMatchObject({
      propose: false,
      reason: 'the gate is red: CI of dev at ffffffff is failure',
    });
    expect(red.report?.gaps[0]).toEqual({
      category: 'gate',
      detail: 'CI of dev at ffffffff is failure; a release needs a green gate',
    });
    const none = assessReadiness(
      snapshot(['feat: big'], { currentVersion: null, manifestVersion: null }),
      GREEN,
      options,
    );
    expect(none).toMatchObject({ propose: false, report: null });
  });

  it('applies the pre-1.0 rule and says so', () => {
    const readiness = assessReadiness(snapshot(['feat(api)!: drop v1']), GREEN, options);
    expect(readiness.report).toMatchObject({ version: '0.30.0', bump: 'minor', breaking: ['drop v1'] });
    expect(readiness.report!.bump_rule).toMatch(/pre-1\.0 rule/);
  });

  it('uses the curated [Unreleased] body for the entry', () => {
    const readiness = assessReadiness(
      snapshot(['feat: dark mode', 'fix: the pause banner clears', 'fix: claims race (#9)'], {
        changelogText: '## [Unreleased]\n\n- Dark mode, hand-written.\n',
      }),
      GREEN,
      options,
    );
    expect(readiness.report).toMatchObject({
      changelog_source: 'unreleased',
      changelog_entry: '## [0.30.0] - 2026-09-01\n\n- Dark mode, hand-written.\n',
      release_notes: '- Dark mode, hand-written.',
    });
    expect(
      readiness.report!.gaps.filter((gap) => gap.category === 'changelog').map((gap) => gap.detail),
    ).toEqual([
      'fix "the pause banner clears" is not in the curated [Unreleased] section',
      'fix "claims race (#9)" is not in the curated [Unreleased] section',
    ]);
  });
});
