/**
 * The gateway envelope (spec "Gateway envelope", reference A §8.2) and its six error flavors. Every
 * verb answers HTTP 200 with one: success `{ok: true, status, task_id, next, evidence,
 * context_briefing, current_state, valid_next_verbs, data}` or rejection `{ok: false, error
 * (flavor), message, remediate, missing?, field_hints?, inner? …}`. Verbs throw a `Rejection`;
 * the domain's own refusals (AppError from the tasks, findings and A2A services, GitRefusal from
 * the git port) are translated here by HTTP status and code, so they keep their meaning.
 */
import { AppError, type FieldProblem } from '../../platform/http/errors.js';
import { GitRefusal } from './git-port.js';

export const FLAVORS = [
  'tracing_gap',
  'incomplete_input',
  'invalid_state',
  'not_authorized',
  'not_found',
  'circuit_open',
] as const;
export type Flavor = (typeof FLAVORS)[number];

/** What a refusal says, before the task facts (state, next verbs) are added. */
export interface RejectionBody {
  error: Flavor;
  message: string;
  remediate: string;
  /** Stable snake_case code of the underlying refusal (`already_claimed`, `sequence_held`, `no_commits`…). */
  reason: string;
  /** tracing_gap: the missing artifacts; incomplete_input: the fields to fill. */
  missing?: string[];
  /** incomplete_input: what each missing field needs (the answer key). */
  field_hints?: Record<string, string>;
  details?: unknown;
}

/** A verb's refusal: thrown inside the gateway, answered as an error envelope. */
export class Rejection extends Error {
  constructor(readonly body: RejectionBody) {
    super(body.message);
    this.name = 'Rejection';
  }
}

export const reject = (
  error: Flavor,
  message: string,
  remediate: string,
  extra: Partial<Omit<RejectionBody, 'error' | 'message' | 'remediate'>> = {},
): Rejection => new Rejection({ error, message, remediate, reason: extra.reason ?? error, ...extra });

export const tracingGap = (missing: string[], remediate: string, reason = 'tracing_gap'): Rejection =>
  reject(
    'tracing_gap',
    `blocked: required tracing missing — ${missing.join(', ')}. ${remediate}`,
    remediate,
    {
      missing,
      reason,
    },
  );

export const incompleteInput = (
  missing: string[],
  fieldHints: Record<string, string>,
  message: string,
  reason = 'incomplete_input',
): Rejection =>
  reject('incomplete_input', message, `Call again with ${missing.join(', ')} filled in as field_hints say.`, {
    missing,
    field_hints: fieldHints,
    reason,
  });

const DEFAULT_REMEDIATE: Record<Flavor, string> = {
  tracing_gap: 'Produce the missing artifact, then call again.',
  incomplete_input: 'Fill in the missing fields as field_hints say, then call again.',
  invalid_state: 'Check current_state and call one of valid_next_verbs instead.',
  not_authorized: 'This is not yours to do: call one of valid_next_verbs, or give_me_work for your own work.',
  not_found: 'Re-fetch your work with give_me_work (or triage) and use the task_id it gives you.',
  circuit_open: 'Stop retrying; exit gracefully with i_am_blocked, unclaim or i_am_idle.',
};

/** Refusal codes of the domain that mean a required artifact is missing rather than a wrong state. */
const TRACING_CODES = new Set(['subtasks_open']);

/**
 * The envelope form of anything a verb threw that is a refusal; undefined for real failures
 * (5xx, rate limits, bugs), which stay HTTP errors.
 */
export function toRejection(error: unknown): RejectionBody | undefined {
  if (error instanceof Rejection) return error.body;
  if (error instanceof GitRefusal) {
    return {
      error: error.flavor,
      message: error.message,
      remediate: error.remediate ?? DEFAULT_REMEDIATE[error.flavor],
      reason: error.code,
      ...(error.flavor === 'tracing_gap' ? { missing: [error.code] } : {}),
      ...(error.details === undefined ? {} : { details: error.details }),
    };
  }
  if (!(error instanceof AppError)) return undefined;
  const flavor = declaredFlavor(error) ?? flavorOfStatus(error.statusCode, error.code);
  if (!flavor) return undefined;
  const body: RejectionBody = {
    error: flavor,
    message: error.message,
    remediate: error.remediate ?? routeHint(error.details) ?? DEFAULT_REMEDIATE[flavor],
    reason: error.code,
    ...(error.details === undefined ? {} : { details: error.details }),
  };
  const problems = flavor === 'incomplete_input' ? fieldProblems(error.details) : [];
  if (problems.length > 0) {
    body.missing = [...new Set(problems.map((p) => p.field))];
    body.field_hints = Object.fromEntries(problems.map((p) => [p.field, p.message]));
  }
  return body;
}

/** A refusal that names the way round it (the A2A access matrix's `route_hint`). */
function routeHint(details: unknown): string | undefined {
  const hint = (details as { route_hint?: unknown } | undefined)?.route_hint;
  return typeof hint === 'string' ? `Go through the chain instead: ${hint}.` : undefined;
}

/** A flavor the error names itself (e.g. the workspaces module's errors carry one). */
function declaredFlavor(error: AppError): Flavor | undefined {
  const flavor = (error as { flavor?: unknown }).flavor;
  return typeof flavor === 'string' && (FLAVORS as readonly string[]).includes(flavor)
    ? (flavor as Flavor)
    : undefined;
}

function flavorOfStatus(status: number, code: string): Flavor | undefined {
  if (status === 403) return 'not_authorized';
  if (status === 404) return 'not_found';
  if (status === 409) return TRACING_CODES.has(code) ? 'tracing_gap' : 'invalid_state';
  if (status === 400 || status === 422) return 'incomplete_input';
  return undefined;
}

/** A 422's field problems with the `body.` prefix taken off (the agent sent the fields, not a body). */
function fieldProblems(details: unknown): FieldProblem[] {
  if (!Array.isArray(details)) return [];
  return details
    .filter((d): d is FieldProblem => typeof d?.field === 'string' && typeof d?.message === 'string')
    .map((d) => ({ field: d.field.replace(/^body\./, ''), message: d.message }));
}

export { DEFAULT_REMEDIATE };
