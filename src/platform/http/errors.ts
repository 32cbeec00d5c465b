/**
 * The error model of every /api route: `{ error: { code, message, details?, remediate? }, correlation_id }`.
 * Services throw these; the error handler maps them. Codes are stable snake_case strings.
 */
export class AppError extends Error {
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
