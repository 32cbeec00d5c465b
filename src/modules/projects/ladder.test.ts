/** The environment ladder (reference C §7.15): validation, normalisation and the ladder in force. */
import { describe, expect, it } from 'vitest';
import { effectiveLadder, normalizeLadder } from './ladder.js';

const fields = (rungs: { name: string; branch: string }[]) =>
  normalizeLadder(rungs).problems.map((p) => p.field);

describe('normalizeLadder', () => {
  it('keeps a valid ladder in order, trimmed', () => {
    const rungs = [
      { name: ' dev ', branch: 'develop' },
      { name: 'staging', branch: 'release/next' },
      { name: 'prod', branch: 'main' },
    ];
    expect(normalizeLadder(rungs)).toEqual({
      ladder: [
        { name: 'dev', branch: 'develop' },
        { name: 'staging', branch: 'release/next' },
        { name: 'prod', branch: 'main' },
      ],
      problems: [],
    });
  });

  it('stores an empty or absent ladder as null', () => {
    expect(normalizeLadder([])).toEqual({ ladder: null, problems: [] });
    expect(normalizeLadder(null)).toEqual({ ladder: null, problems: [] });
    expect(normalizeLadder(undefined)).toEqual({ ladder: null, problems: [] });
  });

  it('needs at least two rungs', () => {
    expect(fields([{ name: 'prod', branch: 'main' }])).toEqual(['body.environments']);
  });

  it('needs non-empty names and branches', () => {
    expect(
      fields([
        { name: ' ', branch: 'dev' },
        { name: 'prod', branch: '' },
      ]),
    ).toEqual(['body.environments.0.name', 'body.environments.1.branch']);
  });

  it('needs unique branches and names, and valid branch names', () => {
    expect(
      fields([
        { name: 'dev', branch: 'main' },
        { name: 'prod', branch: 'main' },
      ]),
    ).toEqual(['body.environments.1.branch']);
    expect(
      fields([
        { name: 'dev', branch: 'dev' },
        { name: 'dev', branch: 'main' },
      ]),
    ).toEqual(['body.environments.1.name']);
    expect(
      fields([
        { name: 'dev', branch: 'has space' },
        { name: 'prod', branch: 'main' },
      ]),
    ).toEqual(['body.environments.0.branch']);
  });
});

describe('effectiveLadder', () => {
  it('is the declared ladder, or head and prod on the default branch', () => {
    const environments = [
      { name: 'dev', branch: 'dev' },
      { name: 'prod', branch: 'main' },
    ];
    expect(effectiveLadder({ environments, defaultBranch: 'main' })).toBe(environments);
    expect(effectiveLadder({ environments: null, defaultBranch: 'trunk' })).toEqual([
      { name: 'head', branch: 'trunk' },
      { name: 'prod', branch: 'trunk' },
    ]);
  });
});
