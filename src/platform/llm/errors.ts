/**
 * One typed error family for every model call. Rate-limited and overloaded answers are
 * `ModelThrottledError`, a `ProviderRateLimitError`, so a domain route that lets one through
 * answers 429 with `Retry-After` (the HTTP conventions map that class). Everything else is a
 * `ModelCallError`, an `AppError` (504 for a timeout, 502 for the rest) with a stable code.
 * Messages carry the provider's own words, never a key.
 */
import { AppError, ProviderRateLimitError } from '../http/errors.js';
import { type HeaderSource, retryAfterSeconds } from './retry-after.js';

export type ThrottleKind = 'rate_limited' | 'overloaded';
export type CallFailureKind =
  | 'authentication'
  | 'bad_request'
  | 'timeout'
  | 'cancelled'
  | 'unreachable'
  | 'provider_error';
export type ModelErrorKind = ThrottleKind | CallFailureKind;

/** 429 / overloaded (Anthropic 529 `overloaded_error`, 503): wait `retryAfterSeconds`, then retry. */
export class ModelThrottledError extends ProviderRateLimitError {
  constructor(
    readonly kind: ThrottleKind,
    provider: string,
    retryAfterSeconds: number | undefined,
    message: string,
    readonly status?: number,
  ) {
    super(provider, retryAfterSeconds, message);
    this.name = 'ModelThrottledError';
  }

  readonly retryable = true;
}

const CALL_FAILURE_HTTP: Record<CallFailureKind, { status: number; code: string; remediate?: string }> = {
  authentication: {
    status: 502,
    code: 'provider_authentication_failed',
    remediate: "Check the provider's API key and its permissions in /api/providers.",
  },
  bad_request: { status: 502, code: 'provider_rejected_request' },
  timeout: { status: 504, code: 'provider_timeout' },
  cancelled: { status: 499, code: 'provider_call_cancelled' },
  unreachable: {
    status: 502,
    code: 'provider_unreachable',
    remediate:
      "Check the provider's base URL and that it is running; POST /api/providers/{name}/test checks it.",
  },
  provider_error: { status: 502, code: 'provider_error' },
};

/** Any other failed model call: authentication, bad request, timeout, cancelled, unreachable, 5xx. */
export class ModelCallError extends AppError {
  constructor(
    readonly kind: CallFailureKind,
    readonly provider: string,
    message: string,
    readonly status?: number,
    cause?: unknown,
  ) {
    const http = CALL_FAILURE_HTTP[kind];
    super(http.status, http.code, message, { provider, kind, ...(status ? { status } : {}) }, http.remediate);
    this.name = 'ModelCallError';
    if (cause !== undefined) this.cause = cause;
  }

  /** Worth trying again later (a timeout, an unreachable server, a provider 5xx). */
  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'unreachable' || this.kind === 'provider_error';
  }
}

export type ModelError = ModelThrottledError | ModelCallError;

export function isModelError(error: unknown): error is ModelError {
  return error instanceof ModelThrottledError || error instanceof ModelCallError;
}

/** What went wrong, as the adapters describe an SDK's error (pure input to `modelErrorFor`). */
export type CallFailure =
  | {
      kind: 'http';
      /** Undefined for an error event inside a stream. */
      status: number | undefined;
      headers?: HeaderSource;
      /** The error body's type (`overloaded_error`, `rate_limit_error`, `insufficient_quota`…). */
      errorType?: string | null;
      message: string;
    }
  | { kind: 'connection'; message: string }
  | { kind: 'timeout' }
  | { kind: 'cancelled' };

/** The kind of an HTTP failure from its status and the body's error type (pure). */
export function classifyHttpFailure(status: number | undefined, errorType?: string | null): ModelErrorKind {
  const type = errorType ?? '';
  if (type === 'overloaded_error' || status === 529 || status === 503) return 'overloaded';
  if (status === 429 || type === 'rate_limit_error') return 'rate_limited';
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error')
    return 'authentication';
  if (status === 408) return 'timeout';
  if (status !== undefined && status >= 400 && status < 500) return 'bad_request';
  if (type === 'invalid_request_error') return 'bad_request';
  return 'provider_error';
}

/** The ModelError for a failure (pure; `nowMs` reads an HTTP-date Retry-After). */
export function modelErrorFor(
  provider: string,
  failure: CallFailure,
  nowMs: number,
  cause?: unknown,
): ModelError {
  switch (failure.kind) {
    case 'timeout':
      return new ModelCallError(
        'timeout',
        provider,
        `provider ${provider} did not answer in time`,
        undefined,
        cause,
      );
    case 'cancelled':
      return new ModelCallError(
        'cancelled',
        provider,
        `the call to provider ${provider} was cancelled`,
        undefined,
        cause,
      );
    case 'connection':
      return new ModelCallError(
        'unreachable',
        provider,
        `provider ${provider} cannot be reached: ${failure.message}`,
        undefined,
        cause,
      );
    case 'http': {
      const kind = classifyHttpFailure(failure.status, failure.errorType);
      const said = failure.message ? `: ${failure.message}` : '';
      const answered = failure.status === undefined ? 'failed mid-stream' : `answered ${failure.status}`;
      if (kind === 'rate_limited' || kind === 'overloaded') {
        const wait = retryAfterSeconds(failure.headers, nowMs);
        const what = kind === 'rate_limited' ? 'is rate limited' : 'is overloaded';
        const error = new ModelThrottledError(
          kind,
          provider,
          wait,
          `provider ${provider} ${what}${said}`,
          failure.status,
        );
        if (cause !== undefined) error.cause = cause;
        return error;
      }
      return new ModelCallError(
        kind,
        provider,
        `provider ${provider} ${answered}${said}`,
        failure.status,
        cause,
      );
    }
  }
}
