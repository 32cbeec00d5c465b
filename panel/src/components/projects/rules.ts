/**
 * The project forms' rules, pure: what is wrong before sending (a new project's draft, a card's
 * fields, a ladder) and the server's error split into per-field messages and the rest.
 */
import { type Problem, problemOf } from '../../api/problem';
import type { Project, ProjectPatch, Rung } from './types';

export type FieldErrors = Record<string, string>;

/**
 * The server's field problems by field name (`body.dep_update_paths` → `dep_update_paths`), and the
 * rest. Several problems of one field (one per bad allowlist entry) are one line each.
 */
export function serverFieldErrors(error: unknown): { fields: FieldErrors; problem: Problem | null } {
  if (error === null || error === undefined) return { fields: {}, problem: null };
  const problem = problemOf(error);
  const fields: FieldErrors = {};
  for (const { field, message } of problem.fields) {
    const name = field.replace(/^body[./]?/, '').split(/[./]/)[0] ?? field;
    fields[name] = fields[name] ? `${fields[name]}\n${message}` : message;
  }
  if (problem.code === 'slug_taken') fields.slug = problem.message;
  return { fields, problem: Object.keys(fields).length > 0 ? null : problem };
}

const SLUG = /^[a-z0-9-]{1,50}$/;

export interface ProjectDraft {
  slug: string;
  name: string;
  git_url: string;
  git_provider: string;
  forge_api_url: string;
  default_branch: string;
  git_token: string;
}

/** Problems we can see before sending. */
export function projectDraftProblems(draft: ProjectDraft): FieldErrors {
  const problems: FieldErrors = {};
  if (!SLUG.test(draft.slug.trim())) problems.slug = 'Use 1–50 characters: a-z, 0-9 and -.';
  if (!draft.name.trim()) problems.name = 'Give the project a name.';
  else if (draft.name.trim().length > 100) problems.name = 'At most 100 characters.';
  if (!draft.git_url.trim())
    problems.git_url = 'Enter the repository URL (https://…, git@…, or a local path).';
  else if (draft.git_url.trim().length > 500) problems.git_url = 'At most 500 characters.';
  if (draft.default_branch.trim().length > 200) problems.default_branch = 'At most 200 characters.';
  return problems;
}

export interface FieldSpec {
  key: keyof ProjectPatch & keyof Project;
  label: string;
  hint: string;
  /** `list`: a string array, edited one entry per line (or comma-separated); empty = []. */
  kind: 'text' | 'checkbox' | 'select' | 'money' | 'list';
  placeholder?: string;
  /** The stored value that reads as "default": shown as an empty input with the placeholder. */
  defaultValue?: string;
  /** Empty means null (cleared); otherwise empty is refused. */
  nullable?: boolean;
  max?: number;
  options?: readonly { value: string; label: string }[];
  mono?: boolean;
  wide?: boolean;
}

export type CardDraft = Record<string, string | boolean>;

/** A list field's text as its entries: split on newlines and commas, trimmed, blanks dropped. */
export const listEntries = (text: string): string[] =>
  text
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** Problems we can see before sending. */
export function fieldProblems(draft: CardDraft, fields: readonly FieldSpec[]): FieldErrors {
  const problems: FieldErrors = {};
  for (const spec of fields) {
    const value = draft[spec.key];
    if (typeof value !== 'string') continue;
    const text = value.trim();
    // A list's entries are judged by the server, one problem per entry (its grammar is the proxy's).
    if (spec.kind === 'list') continue;
    if (!text && !spec.nullable) problems[spec.key] = `${spec.label} is required.`;
    else if (spec.max && text.length > spec.max) problems[spec.key] = `At most ${spec.max} characters.`;
    else if (spec.kind === 'money' && text) {
      const amount = Number(text);
      if (!Number.isFinite(amount) || amount <= 0)
        problems[spec.key] = 'Enter an amount above 0, or leave it empty.';
    }
  }
  return problems;
}

/** What is wrong with a ladder before sending it; null when it may be sent. */
export function ladderProblem(rungs: readonly Rung[]): string | null {
  if (rungs.length === 1) return 'A ladder needs at least two rungs: the head first, prod last.';
  if (rungs.some((rung) => !rung.name.trim() || !rung.branch.trim()))
    return 'Every rung needs a name and a branch.';
  const names = new Set(rungs.map((rung) => rung.name.trim()));
  const branches = new Set(rungs.map((rung) => rung.branch.trim()));
  if (names.size < rungs.length || branches.size < rungs.length)
    return 'Rung names and branches must be unique.';
  return null;
}
