/**
 * Conventional-commit classification of the commits since the last release, through
 * `conventional-commits-parser` (one parser, built once). Pure.
 *
 * - Kinds: feat, fix, security, perf, refactor, docs, chore, other. `revert` counts as a fix; test,
 *   build, ci, style and deps are chores; a `security` type or scope is a security change.
 * - Breaking: a `!` before the colon (`feat(api)!: …`) or a `BREAKING CHANGE:` / `BREAKING-CHANGE:`
 *   footer.
 * - A message that is not conventional (or has an unknown type) is `other` and needs a person to
 *   classify it: the report lists it as a gap.
 */
import { CommitParser } from 'conventional-commits-parser';

export const CHANGE_KINDS = [
  'feat',
  'fix',
  'security',
  'perf',
  'refactor',
  'docs',
  'chore',
  'other',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface CommitMessage {
  sha: string;
  subject: string;
  body: string;
}

export interface ClassifiedCommit {
  sha: string;
  kind: ChangeKind;
  /** The conventional type as written (lower case), or null when the message is not conventional. */
  type: string | null;
  scope: string | null;
  breaking: boolean;
  /** The description after `type(scope): `, or the whole subject when not conventional. */
  summary: string;
  /** The first `(#N)` of the subject: the pull request it came from. */
  pr: number | null;
  /** Not conventional, or a type nobody knows: a person has to say what it is. */
  needsManual: boolean;
}

const TYPE_KINDS: Readonly<Record<string, ChangeKind>> = {
  feat: 'feat',
  feature: 'feat',
  fix: 'fix',
  bugfix: 'fix',
  hotfix: 'fix',
  revert: 'fix',
  security: 'security',
  sec: 'security',
  perf: 'perf',
  refactor: 'refactor',
  docs: 'docs',
  doc: 'docs',
  chore: 'chore',
  test: 'chore',
  tests: 'chore',
  build: 'chore',
  ci: 'chore',
  style: 'chore',
  deps: 'chore',
  release: 'chore',
};

const SECURITY_SCOPES = new Set(['security', 'sec']);

// `type(scope)!: subject`; the `!` is captured so a breaking header needs no footer.
const HEADER = /^(\w+)(?:\(([^()\r\n]*)\))?(!)?: (.+)$/;

const parser = new CommitParser({
  headerPattern: HEADER,
  headerCorrespondence: ['type', 'scope', 'bang', 'subject'],
  noteKeywords: ['BREAKING CHANGE', 'BREAKING-CHANGE'],
  // The default revert pattern is git's own `Revert "…"` message.
});

const PR_NUMBER = /\(#(\d+)\)/;

export function classifyCommit(commit: CommitMessage): ClassifiedCommit {
  const subject = commit.subject.trim();
  const pr = pullRequestOf(subject);
  const message = commit.body.trim() ? `${subject}\n\n${commit.body}` : subject;
  const parsed = subject ? parser.parse(message) : null;
  const type = typeof parsed?.type === 'string' && parsed.type ? parsed.type.toLowerCase() : null;
  const scope = typeof parsed?.scope === 'string' && parsed.scope.trim() ? parsed.scope.trim() : null;
  const breaking =
    parsed !== null &&
    (parsed.bang === '!' || parsed.notes.some((note) => /^BREAKING[ -]CHANGE$/i.test(note.title)));
  if (parsed?.revert || /^revert\b/i.test(subject)) {
    return {
      sha: commit.sha,
      kind: 'fix',
      type: type ?? 'revert',
      scope,
      breaking,
      summary: subject,
      pr,
      needsManual: false,
    };
  }
  const known = type ? TYPE_KINDS[type] : undefined;
  if (!type || !known) {
    return { sha: commit.sha, kind: 'other', type, scope, breaking, summary: subject, pr, needsManual: true };
  }
  const kind: ChangeKind =
    scope && SECURITY_SCOPES.has(scope.toLowerCase()) && (known === 'fix' || known === 'chore')
      ? 'security'
      : known;
  const summary =
    typeof parsed?.subject === 'string' && parsed.subject.trim() ? parsed.subject.trim() : subject;
  return { sha: commit.sha, kind, type, scope, breaking, summary, pr, needsManual: false };
}

export function classifyCommits(commits: readonly CommitMessage[]): ClassifiedCommit[] {
  return commits.map(classifyCommit);
}

function pullRequestOf(subject: string): number | null {
  const match = PR_NUMBER.exec(subject);
  return match ? Number(match[1]) : null;
}

/** A release commit of any version: `chore(release): X.Y.Z`. */
export const RELEASE_SUBJECT = /^chore\(release\):\s*v?(\d+\.\d+\.\d+\S*)\s*$/;

export const releaseSubject = (version: string): string => `chore(release): ${version}`;
