/**
 * HTTP conventions shared by every route: correlation id and response-time headers, the error
 * model, 404 for unknown paths, 413/415/400 for unreadable bodies, 422 with field details, the
 * 429 mapping of provider rate limits, 503 `store_unavailable` (with `Retry-After`) whenever
 * the database or the cache cannot be reached, and 503 `store_read_only` for a write to a store that
 * takes none (while it moves to PostgreSQL). An unexpected error is a 500 whose body says
 * nothing of it (the log has it).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isReadOnlyStore } from '../db/errors.js';
import { unreachableStore } from '../store-errors.js';
import {
  AppError,
  type ErrorBody,
  type FieldProblem,
  ProviderRateLimitError,
  storeReadOnly,
  storeUnavailable,
} from './errors.js';

const SHORT_ID = /^[0-9a-f]{8}$/i;
export const SHORT_ID_REMEDIATE =
  'Use the full 36-character task UUID, not the 8-character short form shown in branch names and commit prefixes.';

/** Accept a caller's correlation id only if it is a sane token; otherwise make a fresh one. */
export function acceptCorrelationId(value: string | undefined): boolean {
  return value !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(value);
}

export function registerConventions(app: FastifyInstance): void {
  // Callback hooks: these run on every response, and an async hook costs each a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-correlation-id', request.id);
    reply.header('x-response-time-ms', reply.elapsedTime.toFixed(2));
    done(null, payload);
  });

  // The per-request line is at debug: when the logger says debug is off, the hook is not registered.
  const logger = app.log as { isLevelEnabled?(level: string): boolean };
  if (logger.isLevelEnabled?.('debug') ?? true) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.debug(
        { method: request.method, url: request.url, status: reply.statusCode, ms: reply.elapsedTime },
        'request served',
      );
      done();
    });
  }

  app.setNotFoundHandler((request, reply) => {
    sendError(
      request,
      reply,
      new AppError(404, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`),
    );
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ProviderRateLimitError)
      reply.header('retry-after', String(retryAfterSeconds(error)));
    sendError(request, reply, toAppError(error, request));
  });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): void {
  if (error.code === 'store_unavailable') request.log.warn({ err: error }, 'a backing store is unreachable');
  else if (error.code === 'store_read_only') request.log.warn('a write refused: the store is read-only');
  else if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.remediate === undefined ? {} : { remediate: error.remediate }),
    },
    correlation_id: request.id,
  };
  reply.status(error.statusCode).type('application/json').send(body);
}

function toAppError(error: FastifyError | Error, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const store = unreachableStore(error);
  if (store) return storeUnavailable(store, error);
  if (isReadOnlyStore(error)) return storeReadOnly(error);
  if (error instanceof ProviderRateLimitError) {
    return new AppError(429, 'rate_limit_exceeded', error.message, {
      provider: error.provider,
      retry_after_seconds: retryAfterSeconds(error),
    });
  }
  const fe = error as FastifyError;
  if (fe.validation) return validationError(fe, request);
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        413,
        'payload_too_large',
        `request body exceeds the limit of ${request.routeOptions.bodyLimit} bytes`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'unsupported_media_type', 'send the body as application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'invalid_json', fe.message);
  }
  const status = fe.statusCode;
  if (status && status >= 400 && status < 500) return new AppError(status, 'bad_request', fe.message);
  request.log.error({ err: error }, 'unhandled error');
  return new AppError(500, 'internal_error', 'an internal error occurred');
}

function validationError(error: FastifyError, request: FastifyRequest): AppError {
  const context = (error.validationContext ?? 'body') as 'body' | 'params' | 'querystring' | 'headers';
  const source: unknown = context === 'querystring' ? request.query : request[context];
  const issues = (error.validation ?? []) as ValidationIssue[];
  const enumPaths = new Set(issues.filter((i) => i.keyword === 'enum').map((i) => i.instancePath));
  const problems: FieldProblem[] = [];
  const said: string[] = [];
  let remediate: string | undefined;
  for (const issue of issues) {
    // A bad enum value is one problem that names the allowed values; the `anyOf`/`type` noise of
    // the same place (a nullable enum) is folded into it.
    if (enumPaths.has(issue.instancePath) && FOLDED_INTO_ENUM.has(issue.keyword)) continue;
    const segments = issue.instancePath.split('/').filter(Boolean);
    const { missingProperty, additionalProperty } = issue.params as {
      missingProperty?: string;
      additionalProperty?: string;
    };
    const named = missingProperty ?? additionalProperty;
    if (named) segments.push(named);
    const field = [context === 'querystring' ? 'query' : context, ...segments].join('.');
    const message =
      issue.keyword === 'enum'
        ? enumMessage(segments.join('.') || field, issue, issues)
        : problemMessage(missingProperty, additionalProperty, issue.message);
    problems.push({ field, message });
    const name = segments.join('.') || context;
    said.push(message.startsWith(`${name} `) ? message : `${name} ${message}`);
    if (isTaskIdField(segments, request) && SHORT_ID.test(String(valueAt(source, segments) ?? ''))) {
      remediate = SHORT_ID_REMEDIATE;
    }
  }
  return new AppError(422, 'validation_failed', summaryOf(said), problems, remediate);
}

/** `the request is invalid: title is required; nature must be one of: …` (the first few problems). */
function summaryOf(said: string[]): string {
  if (said.length === 0) return 'the request is invalid';
  const shown = said.slice(0, SUMMARY_PROBLEMS).join('; ');
  const more = said.length > SUMMARY_PROBLEMS ? ` (and ${said.length - SUMMARY_PROBLEMS} more)` : '';
  return `the request is invalid: ${shown}${more}`;
}

const SUMMARY_PROBLEMS = 3;

const FOLDED_INTO_ENUM = new Set(['anyOf', 'oneOf', 'type']);

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `nature must be one of: technical, non_technical` (`…, or null` when null is accepted too). */
function enumMessage(name: string, issue: ValidationIssue, all: ValidationIssue[]): string {
  const allowed = (issue.params.allowedValues as unknown[] | undefined) ?? [];
  const nullable = all.some(
    (other) =>
      other.instancePath === issue.instancePath && other.keyword === 'type' && other.params.type === 'null',
  );
  return `${name} must be one of: ${allowed.map(String).join(', ')}${nullable ? ', or null' : ''}`;
}

function problemMessage(missing?: string, additional?: string, fallback?: string): string {
  if (missing) return 'is required';
  if (additional) return 'is not an accepted property';
  return fallback ?? 'is invalid';
}

function isTaskIdField(segments: string[], request: FastifyRequest): boolean {
  const name = segments.at(-1);
  if (name === 'task_id' || name === 'parent_task_id') return true;
  return name === 'id' && (request.routeOptions.url ?? '').startsWith('/api/tasks/');
}

function valueAt(source: unknown, path: string[]): unknown {
  let current = source;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Seconds a client should wait: the provider's own hint, else a conservative minute. */
function retryAfterSeconds(error: ProviderRateLimitError): number {
  return error.retryAfterSeconds === undefined ? 60 : Math.max(1, Math.ceil(error.retryAfterSeconds));
}
