/**
 * The readiness assessment: from the snapshot's git facts and the gate's verdict to the release
 * report (next version and the rule that chose it, changes by kind, the drafted CHANGELOG entry,
 * the canonical file set, gaps) and the decision whether to propose. Pure.
 */
import { draftEntry } from './changelog.js';
import {
  boundedGaps,
  canonicalFileSet,
  changelogGaps,
  classificationGaps,
  docsDriftGaps,
  type Gap,
  migrationHeadGaps,
  versionReferenceGaps,
} from './checks.js';
import { CHANGE_KINDS, type ChangeKind } from './classify.js';
import type { GateState, GateVerdict } from './gate.js';
import type { ReadinessSnapshot } from './snapshot-types.js';
import { type BumpKind, planVersion, releaseTag, releaseThreshold } from './version.js';

/** Summaries listed per kind in the report (the count goes on). */
export const ITEMS_PER_KIND = 50;

export interface ChangeGroup {
  kind: ChangeKind;
  count: number;
  items: string[];
}

export interface ReleaseReport {
  version: string;
  tag: string;
  current_version: string;
  bump: BumpKind;
  bump_rule: string;
  last_tag: string | null;
  head_branch: string;
  head_sha: string | null;
  prod_branch: string;
  commit_count: number;
  threshold: string;
  changes: ChangeGroup[];
  breaking: string[];
  changelog_source: 'unreleased' | 'generated';
  /** The drafted entry (`## [X.Y.Z] - date` and its body). */
  changelog_entry: string;
  /** The release notes: the entry's body. */
  release_notes: string;
  canonical_files: string[];
  gaps: Gap[];
  gate: { state: GateState; conclusion: string; sha: string | null; run_url: string | null };
}

export type Readiness =
  | { propose: true; report: ReleaseReport }
  | { propose: false; reason: string; report: ReleaseReport | null };

export interface AssessOptions {
  minCommits: number;
  allowMajorFromZero: boolean;
  /** `YYYY-MM-DD` of the drafted entry. */
  today: string;
}

export function assessReadiness(
  snapshot: ReadinessSnapshot,
  gate: GateVerdict,
  options: AssessOptions,
): Readiness {
  const changes = snapshot.changes;
  const current = snapshot.currentVersion;
  if (!current) {
    return {
      propose: false,
      reason: 'no version manifest (package.json, pyproject.toml, Cargo.toml, VERSION) declares a version',
      report: null,
    };
  }
  const plan = planVersion(current, changes, { allowMajorFromZero: options.allowMajorFromZero });
  const threshold = releaseThreshold(changes, options.minCommits);
  const drafted = draftEntry(plan.next, options.today, snapshot.changelogText ?? '', changes);
  const canonical = canonicalFileSet(
    snapshot.previousReleaseFiles,
    snapshot.filesWithVersion,
    snapshot.changelogText !== null,
  );
  const gaps: Gap[] = [
    ...(gate.state === 'green'
      ? []
      : [{ category: 'gate' as const, detail: `${gate.detail}; a release needs a green gate` }]),
    ...versionReferenceGaps(snapshot.manifestVersion ?? current, canonical, snapshot.filesWithVersion),
    ...changelogGaps(snapshot.changelogText, changes),
    ...docsDriftGaps(current, snapshot.docMentions),
    ...migrationHeadGaps(snapshot.migrationChains),
    ...classificationGaps(changes),
  ];
  const report: ReleaseReport = {
    version: plan.next,
    tag: releaseTag(plan.next),
    current_version: plan.current,
    bump: plan.bump,
    bump_rule: plan.rule,
    last_tag: snapshot.lastTag,
    head_branch: snapshot.headBranch,
    head_sha: snapshot.headSha,
    prod_branch: snapshot.prodBranch,
    commit_count: changes.length,
    threshold: threshold.reason,
    changes: CHANGE_KINDS.map((kind) => {
      const mine = changes.filter((change) => change.kind === kind);
      return {
        kind,
        count: mine.length,
        items: mine.slice(0, ITEMS_PER_KIND).map((change) => change.summary),
      };
    }).filter((group) => group.count > 0),
    breaking: changes
      .filter((change) => change.breaking)
      .slice(0, ITEMS_PER_KIND)
      .map((change) => change.summary),
    changelog_source: drafted.source,
    changelog_entry: drafted.entry,
    release_notes: drafted.body,
    canonical_files: canonical,
    gaps: boundedGaps(gaps),
    gate: { state: gate.state, conclusion: gate.conclusion, sha: gate.sha, run_url: gate.runUrl },
  };
  if (gate.state !== 'green')
    return { propose: false, reason: `the gate is ${gate.state}: ${gate.detail}`, report };
  if (!threshold.met) return { propose: false, reason: threshold.reason, report };
  return { propose: true, report };
}

/** Characters of the task description (the tasks' own limit is higher; the report's full text lives in its markers). */
const DESCRIPTION_MAX = 19_000;

/** The proposal task's description: the report as text for the CEO. */
export function reportDescription(report: ReleaseReport): string {
  const lines = [
    `Proposed release ${report.version} (${report.bump} bump from ${report.current_version}, tag ${report.tag}).`,
    `Rule applied: ${report.bump_rule}.`,
    `${report.commit_count} commit(s) on ${report.head_branch} since ${report.last_tag ?? 'the beginning (no earlier tag)'}; ${report.threshold}.`,
    `Quality gate: ${report.gate.state} (CI of ${report.head_branch} at ${report.gate.sha?.slice(0, 8) ?? 'unknown'}).`,
    '',
    '## Changes by kind',
    ...report.changes.map((group) => `- ${group.kind}: ${group.count}`),
    ...(report.breaking.length
      ? ['', '## Breaking changes', ...report.breaking.map((item) => `- ${item}`)]
      : []),
    '',
    `## Drafted CHANGELOG entry (${report.changelog_source === 'unreleased' ? 'the curated [Unreleased] section' : 'generated from the commits'})`,
    '',
    report.changelog_entry.trim(),
    '',
    '## Files bumped',
    ...report.canonical_files.map((path) => `- ${path}`),
    '',
    '## Gaps',
    ...(report.gaps.length ? report.gaps.map((gap) => `- [${gap.category}] ${gap.detail}`) : ['- none']),
    '',
    'Approve to merge the ladder into prod, bump, commit, wait for CI and publish; reject with the changes you need.',
  ];
  const text = lines.join('\n');
  return text.length > DESCRIPTION_MAX
    ? `${text.slice(0, DESCRIPTION_MAX - 40)}\n… (cut; the full report is in the proposal)`
    : text;
}
