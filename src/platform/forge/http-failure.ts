/**
 * What the REST providers share about failed requests: the error a non-2xx answer raises in the
 * Gitea client, telling transport failures (retryable) from answers, and turning what is left into
 * a ForgeError with a stable code. Tokens never reach a message: only the server's own words do.
 */

import { messageOf } from '../message-of.js';
import type { TransportFailure } from './retry.js';
import { ForgeError } from './types.js';

/** A non-2xx answer of a forge REST API. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | undefined>,
    readonly data: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

/** An HTTP answer as Octokit (`HttpError`) or the Gitea client reports it, or null. */
export function httpAnswerOf(
  error: unknown,
): { status: number; headers: Record<string, string | undefined>; data: unknown; message: string } | null {
  if (error instanceof HttpStatusError) {
    return { status: error.status, headers: error.headers, data: error.data, message: error.message };
  }
  if (error instanceof Error && error.name === 'HttpError') {
    const { status, response } = error as Error & {
      status?: number;
      response?: { headers?: Record<string, string | undefined>; data?: unknown };
    };
    if (typeof status === 'number' && response) {
      return {
        status,
        headers: response.headers ?? {},
        data: response.data,
        message: serverMessage(response.data),
      };
    }
  }
  return null;
}

/** The transport view of an error for the retry policy: an HTTP answer, a network failure, or null. */
export function classifyTransport(error: unknown): TransportFailure | null {
  if (error instanceof ForgeError) return null;
  if (error instanceof Error && error.name === 'AbortError') return null;
  const answer = httpAnswerOf(error);
  if (answer)
    return { kind: 'http', status: answer.status, headers: answer.headers, message: answer.message };
  // Octokit reports a request that got no answer as an HttpError without a response; fetch as a TypeError.
  if (error instanceof Error && (error.name === 'HttpError' || error.name === 'TypeError')) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return { kind: 'network', message: cause instanceof Error ? cause.message : error.message };
  }
  return null;
}

/** A ForgeError for an answer no provider rule took care of. */
export function forgeErrorFor(error: unknown): ForgeError {
  if (error instanceof ForgeError) return error;
  const answer = httpAnswerOf(error);
  if (!answer) {
    const message = messageOf(error);
    return new ForgeError('unavailable', `the forge request failed: ${message}`);
  }
  const { status, message } = answer;
  const details = { status };
  if (status === 401)
    return new ForgeError('unauthorized', `the forge refused the token: ${message}`, details);
  if (status === 403) return new ForgeError('unauthorized', `the token may not do this: ${message}`, details);
  if (status === 404) return new ForgeError('not_found', `not found on the forge: ${message}`, details);
  if (status === 409 || status === 422) {
    return new ForgeError('invalid_input', `the forge refused the request: ${message}`, details);
  }
  return new ForgeError('unavailable', `the forge answered ${status}: ${message}`, details);
}

export const statusOf = (error: unknown): number | null => httpAnswerOf(error)?.status ?? null;

/** The `message` a forge puts in an error body (GitHub and Gitea both do), with GitHub's `errors[].message`. */
export function serverMessage(data: unknown): string {
  if (!data || typeof data !== 'object')
    return typeof data === 'string' && data ? data.slice(0, 300) : 'no message';
  const body = data as { message?: unknown; errors?: unknown };
  const parts = [typeof body.message === 'string' ? body.message : 'no message'];
  if (Array.isArray(body.errors)) {
    for (const item of body.errors) {
      if (item && typeof item === 'object' && typeof (item as { message?: unknown }).message === 'string') {
        parts.push((item as { message: string }).message);
      }
    }
  }
  return parts.join(': ').slice(0, 500);
}

/** Whether a GitHub 422 body names `code` among its validation errors. */
export function hasValidationCode(data: unknown, code: string): boolean {
  const errors = (data as { errors?: unknown } | null)?.errors;
  return (
    Array.isArray(errors) &&
    errors.some((item) => item && typeof item === 'object' && (item as { code?: unknown }).code === code)
  );
}

/** The error to raise for a call: the abort reason when the signal fired, else a ForgeError. */
export function failureOf(error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  return forgeErrorFor(error);
}
