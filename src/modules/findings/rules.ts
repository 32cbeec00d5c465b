/**
 * The findings rules, pure: vocabularies, length caps, validation of raised findings and of
 * addressed references, short-id references (`F-1a2b3c4d`), the rendered one-line form, and which
 * status a finding may move from. A finding moves open → addressed → verified, or to waived
 * (minor and nit only); nothing else about it ever changes.
 */
import type { FieldProblem } from '../../platform/http/errors.js';

export const FINDING_ORIGINS = ['qa', 'pr_gate', 'pm', 'ceo'] as const;
export type FindingOrigin = (typeof FINDING_ORIGINS)[number];

export const FINDING_SEVERITIES = ['blocker', 'major', 'minor', 'nit'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

export const FINDING_STATUSES = ['open', 'addressed', 'verified', 'waived'] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

export const WAIVABLE_SEVERITIES: readonly string[] = ['minor', 'nit'];
/** A finding may be (re-)addressed while it is open or addressed; verified and waived are closed. */
export const ADDRESSABLE_STATUSES: readonly string[] = ['open', 'addressed'];

export const MAX_FINDINGS_PER_RAISE = 10;
export const MAX_REFS_PER_ADDRESS = 100;
/** Rows the ledger route returns at most; the summary always covers the whole ledger. */
export const LEDGER_CAP = 500;

export const FINDING_LIMITS = {
  file: 300,
  criterion: 500,
  expected: 300,
  actual: 300,
  fix: 500,
  evidence: 2000,
  note: 300,
  author: 100,
} as const;

/** One finding as a reviewer raises it. */
export interface FindingInput {
  file?: string | null;
  line?: number | null;
  severity: string;
  /** The acceptance-criterion id or its exact text. */
  criterion?: string | null;
  expected: string;
  actual: string;
  fix: string;
  evidence?: string | null;
}

/** A finding as stored: trimmed text, absent optional fields as null. */
export interface NormalizedFinding {
  file: string | null;
  line: number | null;
  severity: FindingSeverity;
  criterion: string | null;
  expected: string;
  actual: string;
  fix: string;
  evidence: string | null;
}

export interface AddressRef {
  /** The full id, or a prefix of at least 8 characters (an optional `F-` in front is fine). */
  finding_id: string;
  /** The commit that addresses it (7–40 hex characters). */
  commit?: string | null;
  note?: string | null;
}

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);

export const isFindingOrigin = (value: unknown): value is FindingOrigin => isOneOf(FINDING_ORIGINS, value);
export const canWaive = (severity: string): boolean => WAIVABLE_SEVERITIES.includes(severity);

/** Why a path is not repo-relative, or null when it is. */
export function repoPathProblem(file: string): string | null {
  if (file.length === 0) return 'must not be empty';
  if (file.length > FINDING_LIMITS.file) return `must be at most ${FINDING_LIMITS.file} characters`;
  if (/^[/\\]/.test(file)) return 'must be repo-relative, without a leading /';
  if (/^[A-Za-z]:/.test(file)) return 'must be repo-relative, without a drive letter';
  if (file.split(/[/\\]/).includes('..')) return 'must not contain a .. segment';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u001f\u007f]/.test(file)) return 'must not contain control characters';
  return null;
}

/** Field problems of a raise call; an empty list means it may be written. */
export function raiseProblems(
  origin: unknown,
  round: unknown,
  author: unknown,
  findings: unknown,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isFindingOrigin(origin))
    problems.push({ field: 'origin', message: `must be one of ${FINDING_ORIGINS.join(', ')}` });
  if (!Number.isInteger(round) || (round as number) < 1) {
    problems.push({ field: 'round', message: 'must be an integer of at least 1' });
  }
  problems.push(...textProblem('author', author, { required: true, max: FINDING_LIMITS.author }));
  if (!Array.isArray(findings) || findings.length < 1 || findings.length > MAX_FINDINGS_PER_RAISE) {
    problems.push({ field: 'findings', message: `must list 1 to ${MAX_FINDINGS_PER_RAISE} findings` });
    return problems;
  }
  findings.forEach((finding, index) => {
    problems.push(...findingProblems(finding, `findings[${index}]`));
  });
  return problems;
}

export function findingProblems(finding: unknown, at: string): FieldProblem[] {
  if (finding === null || typeof finding !== 'object') return [{ field: at, message: 'must be an object' }];
  const f = finding as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  if (!isOneOf(FINDING_SEVERITIES, f.severity)) {
    problems.push({ field: `${at}.severity`, message: `must be one of ${FINDING_SEVERITIES.join(', ')}` });
  }
  if (f.file !== undefined && f.file !== null) {
    const problem = typeof f.file === 'string' ? repoPathProblem(f.file.trim()) : 'must be a string';
    if (problem) problems.push({ field: `${at}.file`, message: problem });
  }
  if (f.line !== undefined && f.line !== null) {
    if (!Number.isInteger(f.line) || (f.line as number) < 1) {
      problems.push({ field: `${at}.line`, message: 'must be an integer of at least 1' });
    } else if (typeof f.file !== 'string' || f.file.trim() === '') {
      problems.push({ field: `${at}.line`, message: 'needs a file' });
    }
  }
  for (const key of ['expected', 'actual', 'fix'] as const) {
    problems.push(...textProblem(`${at}.${key}`, f[key], { required: true, max: FINDING_LIMITS[key] }));
  }
  for (const key of ['criterion', 'evidence'] as const) {
    problems.push(...textProblem(`${at}.${key}`, f[key], { required: false, max: FINDING_LIMITS[key] }));
  }
  return problems;
}

function textProblem(
  field: string,
  value: unknown,
  rule: { required: boolean; max: number },
): FieldProblem[] {
  if (value === undefined || value === null) return rule.required ? [{ field, message: 'is required' }] : [];
  if (typeof value !== 'string') return [{ field, message: 'must be a string' }];
  const text = value.trim();
  if (rule.required && text === '') return [{ field, message: 'must not be empty' }];
  if (text.length > rule.max) return [{ field, message: `must be at most ${rule.max} characters` }];
  return [];
}

/** The stored form of a finding that passed `findingProblems`. */
export function normalizeFinding(finding: FindingInput): NormalizedFinding {
  const optional = (value: string | null | undefined) => {
    const text = value?.trim();
    return text ? text : null;
  };
  const file = optional(finding.file)?.replace(/^(\.\/)+/, '') ?? null;
  return {
    file,
    line: file ? (finding.line ?? null) : null,
    severity: finding.severity as FindingSeverity,
    criterion: optional(finding.criterion),
    expected: finding.expected.trim(),
    actual: finding.actual.trim(),
    fix: finding.fix.trim(),
    evidence: optional(finding.evidence),
  };
}

/** Field problems of the commit and note parts of addressed references (ids are matched, not validated). */
export function addressRefProblems(refs: unknown): FieldProblem[] {
  if (!Array.isArray(refs) || refs.length > MAX_REFS_PER_ADDRESS) {
    return [{ field: 'refs', message: `must list at most ${MAX_REFS_PER_ADDRESS} references` }];
  }
  const problems: FieldProblem[] = [];
  refs.forEach((ref, index) => {
    const at = `refs[${index}]`;
    if (ref === null || typeof ref !== 'object') {
      problems.push({ field: at, message: 'must be an object' });
      return;
    }
    const r = ref as Record<string, unknown>;
    if (typeof r.finding_id !== 'string')
      problems.push({ field: `${at}.finding_id`, message: 'must be a string' });
    if (r.commit !== undefined && r.commit !== null && !isCommitHash(r.commit)) {
      problems.push({ field: `${at}.commit`, message: 'must be 7 to 40 hexadecimal characters' });
    }
    problems.push(...textProblem(`${at}.note`, r.note, { required: false, max: FINDING_LIMITS.note }));
  });
  return problems;
}

export const isCommitHash = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{7,40}$/i.test(value.trim());

const UUID_SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';

/**
 * A finding reference as typed by an agent: a full id (`full`), a prefix of at least 8 characters
 * (`prefix`), with an optional `F-` (and the brackets of the rendered form) around it; null when it
 * cannot name a finding.
 */
export function parseFindingRef(ref: string): { kind: 'full' | 'prefix'; value: string } | null {
  const value = ref
    .trim()
    .toLowerCase()
    .replace(/^\[?f-/, '')
    .replace(/\]$/, '');
  if (value.length < 8 || value.length > UUID_SHAPE.length) return null;
  for (let i = 0; i < value.length; i++) {
    const ok = UUID_SHAPE[i] === '-' ? value[i] === '-' : /[0-9a-f]/.test(value[i]!);
    if (!ok) return null;
  }
  return { kind: value.length === UUID_SHAPE.length ? 'full' : 'prefix', value };
}

/**
 * Which of a task's finding ids a reference names: exactly one, or why not. A prefix that more
 * than one id starts with is ambiguous; matching never leaves the task's own ledger.
 */
export function resolveFindingRef(
  ref: string,
  ids: readonly string[],
): { id: string } | { problem: 'invalid' | 'not_found' | 'ambiguous' } {
  const parsed = parseFindingRef(ref);
  if (!parsed) return { problem: 'invalid' };
  const matches = ids.filter((id) =>
    parsed.kind === 'full' ? id === parsed.value : id.startsWith(parsed.value),
  );
  if (matches.length === 0) return { problem: 'not_found' };
  if (matches.length > 1) return { problem: 'ambiguous' };
  return { id: matches[0]! };
}

/** `[F-1a2b3c4d] src/api.ts:12 (major) — expected → actual → fix`, for notes and messages. */
export function renderFinding(finding: {
  id: string;
  file: string | null;
  line: number | null;
  severity: string;
  expected: string;
  actual: string;
  fix: string;
}): string {
  const where = finding.file
    ? finding.line
      ? `${finding.file}:${finding.line}`
      : finding.file
    : '(general)';
  return `[F-${finding.id.slice(0, 8)}] ${where} (${finding.severity}) — ${finding.expected} → ${finding.actual} → ${finding.fix}`;
}

/** Summary rows in a stable order: the known origins first, in pipeline order, then any other. */
export function compareOrigins(a: string, b: string): number {
  const rank = (origin: string) => {
    const index = (FINDING_ORIGINS as readonly string[]).indexOf(origin);
    return index === -1 ? FINDING_ORIGINS.length : index;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}
