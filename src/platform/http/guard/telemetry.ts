/**
 * Guard telemetry (GAFFER_GUARD_TELEMETRY_ENABLED, default off): one JSON record per guard event
 * (block, ban, rate limit, behaviour rule), POSTed to GAFFER_GUARD_TELEMETRY_URL or written to the
 * log. A record carries only allow-listed request headers, so X-Agent-Token, cookies,
 * Authorization and any other session or credential header can never be in it.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** The only request headers a telemetry record may carry. */
export const TELEMETRY_HEADERS = [
  'user-agent',
  'referer',
  'origin',
  'content-type',
  'content-length',
  'accept',
  'x-correlation-id',
] as const;

export type GuardEventKind = 'blocked' | 'banned' | 'rate_limited' | 'suspicious';

export interface TelemetryRecord {
  kind: GuardEventKind;
  at: string;
  client_ip: string;
  method: string;
  path: string;
  rule: string;
  detail?: Record<string, unknown>;
  headers: Record<string, string>;
  correlation_id: string;
}

/** Copies the allow-listed headers; everything else (tokens, cookies, authorization) is dropped. */
export function telemetryHeaders(headers: FastifyRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of TELEMETRY_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') out[name] = value.slice(0, 512);
  }
  return out;
}

export function telemetryRecord(
  kind: GuardEventKind,
  request: FastifyRequest,
  rule: string,
  detail?: Record<string, unknown>,
): TelemetryRecord {
  return {
    kind,
    at: new Date().toISOString(),
    client_ip: request.ip,
    method: request.method,
    path: request.url.split('?', 1)[0] ?? '',
    rule,
    ...(detail ? { detail } : {}),
    headers: telemetryHeaders(request.headers),
    correlation_id: String(request.id),
  };
}

export interface TelemetrySink {
  emit(record: TelemetryRecord): void;
  /** Waits for records still being sent. */
  flush(): Promise<void>;
}

export const NO_TELEMETRY: TelemetrySink = { emit() {}, flush: async () => {} };

/** Sends each record as it happens; a failing collector is logged at debug and never slows a request. */
export function telemetrySink(options: {
  enabled: boolean;
  url: string | undefined;
  log: FastifyBaseLogger;
}): TelemetrySink {
  if (!options.enabled) return NO_TELEMETRY;
  const { url, log } = options;
  if (!url) {
    return {
      emit: (record) => log.info({ guard_telemetry: record }, 'guard telemetry'),
      flush: async () => {},
    };
  }
  const pending = new Set<Promise<void>>();
  return {
    emit(record) {
      const sent = fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(record),
        signal: AbortSignal.timeout(5_000),
      })
        .then((response) => {
          if (!response.ok)
            log.debug({ status: response.status }, 'guard telemetry collector refused a record');
          return response.body?.cancel();
        })
        .catch((error: Error) => log.debug({ err: error.message }, 'guard telemetry collector unreachable'))
        .finally(() => pending.delete(sent));
      pending.add(sent);
    },
    async flush() {
      await Promise.all([...pending]);
    },
  };
}
