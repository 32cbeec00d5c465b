import { describe, expect, it } from 'vitest';
import {
  boundedGaps,
  canonicalFileSet,
  changelogGaps,
  classificationGaps,
  docsDriftGaps,
  GAPS_PER_CATEGORY,
  versionReferenceGaps,
} from './checks.js';
import { classifyCommit } from './classify.js';

const changes = [
  'feat(ui): dark mode (#41)',
  'fix: the pause banner clears',
  'docs: typo',
  'perf: faster claims',
  'tidy up',
].map((subject, index) => classifyCommit({ sha: `${index}`.repeat(10), subject, body: '' }));

describe('readiness checks', () => {
  it('derives the canonical set from the previous release commit, else from the files holding the version', () => {
    expect(canonicalFileSet(['package.json', 'src/version.ts'], ['README.md', 'package.json'], true)).toEqual(
      ['CHANGELOG.md', 'package.json', 'src/version.ts'],
    );
    expect(canonicalFileSet(null, ['package.json', 'README.md'], false)).toEqual([
      'README.md',
      'package.json',
    ]);
  });

  it('reports every tracked file holding the version outside the canonical set, except the CHANGELOG', () => {
    const gaps = versionReferenceGaps(
      '0.29.0',
      ['CHANGELOG.md', 'package.json'],
      ['CHANGELOG.md', 'docs/install.md', 'package.json'],
    );
    expect(gaps).toEqual([
      {
        category: 'version_ref',
        detail:
          'docs/install.md holds 0.29.0 but is not in the canonical file set (the files of the previous chore(release) commit)',
      },
    ]);
  });

  it('judges the CHANGELOG: absent, no [Unreleased], curated but missing changes, generated', () => {
    expect(changelogGaps(null, changes)[0]!.detail).toMatch(/no CHANGELOG\.md/);
    expect(changelogGaps('# Changelog\n\n## [1.0.0] - x\n', changes)[0]!.detail).toMatch(/no \[Unreleased\]/);
    expect(changelogGaps('## [Unreleased]\n\n', changes)).toEqual([]);
    const curated = '## [Unreleased]\n\n- Dark mode for the panel (#41)\n- Faster claims\n';
    expect(changelogGaps(curated, changes).map((gap) => gap.detail)).toEqual([
      'fix "the pause banner clears" is not in the curated [Unreleased] section',
    ]);
  });

  it('names documentation lines that mention an earlier release, and unclassifiable commits', () => {
    expect(docsDriftGaps('0.29.0', [{ path: 'README.md', line: 12, version: '0.28.0' }])).toEqual([
      {
        category: 'docs_drift',
        detail: 'README.md:12 mentions release 0.28.0, older than the current 0.29.0',
      },
    ]);
    expect(classificationGaps(changes)).toEqual([
      {
        category: 'classification',
        detail: '44444444 "tidy up" is not a conventional commit; classify it by hand',
      },
    ]);
  });

  it('keeps at most GAPS_PER_CATEGORY gaps of one category, counting the rest', () => {
    const many = Array.from({ length: GAPS_PER_CATEGORY + 5 }, (_, index) => ({
      category: 'classification' as const,
      detail: `c${index}`,
    }));
    const bounded = boundedGaps([{ category: 'gate', detail: 'red' }, ...many]);
    expect(bounded).toHaveLength(GAPS_PER_CATEGORY + 2);
    expect(bounded[0]).toEqual({ category: 'gate', detail: 'red' });
    expect(bounded.at(-1)).toEqual({ category: 'classification', detail: '… and 5 more of this kind' });
  });
});
