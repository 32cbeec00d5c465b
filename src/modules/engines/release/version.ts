/**
 * The semver bump a change set asks for, the next version (`semver`), and the threshold that
 * decides whether it is worth a proposal. Pure.
 *
 * Bump: any breaking change → major, else any feat → minor, else patch. The pre-1.0 rule
 * (DESIGN.md §5): on 0.x a breaking change bumps the minor (0.29.0 → 0.30.0), as release-please's
 * `bump-minor-pre-major` does, unless GAFFER_RELEASE_ALLOW_MAJOR_FROM_ZERO is on; the report says
 * which rule applied.
 *
 * Threshold: commits since the last release ≥ GAFFER_RELEASE_MIN_COMMITS, or at least one feat,
 * security or breaking commit (each qualifies alone).
 */
import semver from 'semver';
import type { ClassifiedCommit } from './classify.js';

export type BumpKind = 'major' | 'minor' | 'patch';

export interface VersionPlan {
  current: string;
  next: string;
  bump: BumpKind;
  /** One sentence: why this bump (and whether the pre-1.0 rule changed it). */
  rule: string;
}

/** A usable `X.Y.Z` (a leading `v` and surrounding space dropped), or null. */
export function cleanVersion(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const cleaned = semver.clean(raw.trim());
  return cleaned && semver.valid(cleaned) ? cleaned : null;
}

export function planVersion(
  current: string,
  changes: readonly Pick<ClassifiedCommit, 'kind' | 'breaking'>[],
  options: { allowMajorFromZero: boolean },
): VersionPlan {
  const version = cleanVersion(current);
  if (!version) throw new Error(`"${current}" is not a semantic version`);
  const breaking = changes.some((change) => change.breaking);
  const feat = changes.some((change) => change.kind === 'feat');
  const preOne = semver.major(version) === 0;
  let bump: BumpKind;
  let rule: string;
  if (breaking && preOne && !options.allowMajorFromZero) {
    bump = 'minor';
    rule =
      'breaking change on 0.x: minor bump by the pre-1.0 rule (GAFFER_RELEASE_ALLOW_MAJOR_FROM_ZERO is off)';
  } else if (breaking) {
    bump = 'major';
    rule = preOne
      ? 'breaking change on 0.x: major bump, leaving 0.x (GAFFER_RELEASE_ALLOW_MAJOR_FROM_ZERO is on)'
      : 'breaking change: major bump';
  } else if (feat) {
    bump = 'minor';
    rule = 'new feature, nothing breaking: minor bump';
  } else {
    bump = 'patch';
    rule = 'fixes and maintenance only: patch bump';
  }
  const next = semver.inc(version, bump);
  if (!next) throw new Error(`cannot bump ${version} by ${bump}`);
  return { current: version, next, bump, rule };
}

export interface ThresholdVerdict {
  met: boolean;
  reason: string;
}

export function releaseThreshold(
  changes: readonly Pick<ClassifiedCommit, 'kind' | 'breaking'>[],
  minCommits: number,
): ThresholdVerdict {
  const count = changes.length;
  if (count === 0) return { met: false, reason: 'no commits since the last release' };
  const qualifying = changes.find(
    (change) => change.kind === 'feat' || change.kind === 'security' || change.breaking,
  );
  if (qualifying) {
    const what = qualifying.breaking ? 'a breaking change' : `a ${qualifying.kind} commit`;
    return { met: true, reason: `${what} qualifies on its own (${count} commit(s) since the last release)` };
  }
  if (count >= minCommits) {
    return { met: true, reason: `${count} commit(s) since the last release (threshold ${minCommits})` };
  }
  return {
    met: false,
    reason: `${count} commit(s) since the last release, below the threshold of ${minCommits}, and no feat or security commit`,
  };
}

/** The tag a version is published under: `vX.Y.Z`. */
export const releaseTag = (version: string): string => `v${version}`;
