import type { StoreName } from '../store-errors.js';

/**
 * The error model of every /api route: `{ error: { code, message, details?, remediate? }, correlation_id }`.
 * Services throw these; the error handler maps them. Codes are stable snake_case strings.
 */
export class AppError extends Error {
  /** When set, the answer carries `Retry-After` with this many seconds. */
  retryAfterSeconds?: number;

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly remediate?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string, details?: unknown) =>
  new AppError(400, code, message, details);
export const unauthorized = (message = 'authentication required') =>
  new AppError(401, 'unauthenticated', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (code: string, message: string, details?: unknown) =>
  new AppError(409, code, message, details);
export const unprocessable = (message: string, details?: unknown, remediate?: string) =>
  new AppError(422, 'validation_failed', message, details, remediate);
export const unavailable = (message: string) => new AppError(503, 'unavailable', message);

/** How long a caller is asked to wait before retrying while a store is unreachable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * 503 `store_unavailable` with `Retry-After`: the database or the cache cannot be reached. The
 * message names the store only — never SQL or a driver's words (those go to the log).
 */
export function storeUnavailable(store: StoreName, cause?: unknown): AppError {
  const error = new AppError(
    503,
    'store_unavailable',
    `the ${store} cannot be reached right now; retry after ${STORE_RETRY_AFTER_SECONDS} seconds`,
    { store },
    'Retry after the Retry-After delay; GET /ready shows which backing store is down.',
  );
  error.retryAfterSeconds = STORE_RETRY_AFTER_SECONDS;
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** How long a caller is asked to wait before retrying a write to a read-only store. */
export const READ_ONLY_RETRY_AFTER_SECONDS = 30;

/**
 * 503 `store_read_only` with `Retry-After`: the store takes no writes — this embedded store is being
 * (or was) moved to PostgreSQL, and the service is to be restarted on the moved store. Reads go on.
 */
export function storeReadOnly(cause?: unknown): AppError {
  const error = new AppError(
    503,
    'store_read_only',
    'the store takes no writes right now: it is being moved, or was moved, to PostgreSQL',
    undefined,
    'Retry after the Retry-After delay; once moved, Gaffer is restarted on the new store (docs/operations.md, "Moving to PostgreSQL").',
  );
  error.retryAfterSeconds = READ_ONLY_RETRY_AFTER_SECONDS;
  if (cause !== undefined) error.cause = cause;
  return error;
}

/**
 * Raised by model-provider callers when a provider refuses for rate or overload reasons;
 * answered as 429 with `Retry-After`.
 */
export class ProviderRateLimitError extends Error {
  constructor(
    readonly provider: string,
    readonly retryAfterSeconds: number | undefined,
    message = `provider ${provider} is rate limited`,
  ) {
    super(message);
    this.name = 'ProviderRateLimitError';
  }
}

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; remediate?: string };
  correlation_id: string;
}

/** A field-level validation problem, as listed in a 422's `details`. */
export interface FieldProblem {
  /** Where the problem is: `body.title`, `params.id`, `query.limit`. */
  field: string;
  message: string;
}
