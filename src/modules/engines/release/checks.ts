/**
 * The readiness checks that produce gaps for the CEO to weigh (only the gate blocks a proposal):
 * version references outside the canonical file set, CHANGELOG completeness, documentation drift,
 * the single migration head, unclassifiable commits. Pure, over the snapshot's facts.
 */
import { CHANGELOG_PATH, hasUnreleasedSection, unreleasedBody } from './changelog.js';
import type { ClassifiedCommit } from './classify.js';
import { type MigrationChain, migrationGaps } from './migrations.js';

export const GAP_CATEGORIES = [
  'gate',
  'version',
  'version_ref',
  'changelog',
  'docs_drift',
  'migration',
  'classification',
] as const;
export type GapCategory = (typeof GAP_CATEGORIES)[number];

export interface Gap {
  category: GapCategory;
  detail: string;
}

/** At most this many gaps of one category are listed; the rest are counted in one line. */
export const GAPS_PER_CATEGORY = 20;

/**
 * The files the release bumps: those the previous `chore(release):` commit changed, or — for a
 * first release, with no such commit — every tracked file holding the current version. The
 * CHANGELOG is always in it when it exists (it is stamped, never string-replaced).
 */
export function canonicalFileSet(
  previousReleaseFiles: readonly string[] | null,
  filesWithVersion: readonly string[],
  hasChangelog: boolean,
): string[] {
  const files = new Set(previousReleaseFiles ?? filesWithVersion);
  if (hasChangelog) files.add(CHANGELOG_PATH);
  return [...files].sort();
}

/** Every tracked file holding the current version that the canonical set leaves out (the CHANGELOG is history). */
export function versionReferenceGaps(
  version: string,
  canonical: readonly string[],
  filesWithVersion: readonly string[],
): Gap[] {
  const inPlan = new Set(canonical);
  return filesWithVersion
    .filter((path) => path !== CHANGELOG_PATH && !inPlan.has(path))
    .map((path) => ({
      category: 'version_ref',
      detail: `${path} holds ${version} but is not in the canonical file set (the files of the previous chore(release) commit)`,
    }));
}

const NOTABLE_KINDS = new Set(['feat', 'fix', 'security', 'perf']);

/**
 * No CHANGELOG.md, or one without an `[Unreleased]` section, is a gap (the release adds them). With a
 * curated `[Unreleased]` body, every notable change (feat, fix, security, perf, breaking) it does not
 * mention — by `#<pr>` or by its summary — is a gap. Without one the entry is generated from the
 * commits, so nothing can be missing.
 */
export function changelogGaps(changelogText: string | null, changes: readonly ClassifiedCommit[]): Gap[] {
  if (changelogText === null) {
    return [{ category: 'changelog', detail: `there is no ${CHANGELOG_PATH}; the release creates one` }];
  }
  if (!hasUnreleasedSection(changelogText)) {
    return [
      {
        category: 'changelog',
        detail: `${CHANGELOG_PATH} has no [Unreleased] section; the release adds one above the new entry`,
      },
    ];
  }
  const curated = unreleasedBody(changelogText);
  if (!curated) return [];
  const body = curated.toLowerCase();
  return changes
    .filter((change) => NOTABLE_KINDS.has(change.kind) || change.breaking)
    .filter(
      (change) =>
        !(change.pr !== null && body.includes(`#${change.pr}`)) &&
        !body.includes(change.summary.toLowerCase()),
    )
    .map((change) => ({
      category: 'changelog',
      detail: `${change.kind}${change.breaking ? ' (breaking)' : ''} "${change.summary}"${change.pr !== null && !change.summary.includes(`#${change.pr}`) ? ` (#${change.pr})` : ''} is not in the curated [Unreleased] section`,
    }));
}

/** A line of a document that names one of our own earlier releases. */
export interface DocMention {
  path: string;
  line: number;
  version: string;
}

/**
 * Documentation drift: README and docs/ files naming an earlier release of this project (one of
 * its own tags, older than the current version) — "install 0.28.0" left behind by a release.
 */
export function docsDriftGaps(current: string, mentions: readonly DocMention[]): Gap[] {
  return mentions.map((mention) => ({
    category: 'docs_drift',
    detail: `${mention.path}:${mention.line} mentions release ${mention.version}, older than the current ${current}`,
  }));
}

export const migrationHeadGaps = (chains: readonly MigrationChain[]): Gap[] =>
  migrationGaps(chains).map((detail) => ({ category: 'migration', detail }));

export const classificationGaps = (changes: readonly ClassifiedCommit[]): Gap[] =>
  changes
    .filter((change) => change.needsManual)
    .map((change) => ({
      category: 'classification',
      detail: `${change.sha.slice(0, 8)} "${change.summary}" is not a conventional commit; classify it by hand`,
    }));

/** The gaps with each category cut to GAPS_PER_CATEGORY lines plus a count of the rest. */
export function boundedGaps(gaps: readonly Gap[]): Gap[] {
  const out: Gap[] = [];
  for (const category of GAP_CATEGORIES) {
    const mine = gaps.filter((gap) => gap.category === category);
    out.push(...mine.slice(0, GAPS_PER_CATEGORY));
    if (mine.length > GAPS_PER_CATEGORY) {
      out.push({ category, detail: `… and ${mine.length - GAPS_PER_CATEGORY} more of this kind` });
    }
  }
  return out;
}
