/**
 * What the guard tells the world about what it did: a suspicious-activity log line at
 * GAFFER_GUARD_LOG_SUSPICIOUS_LEVEL, a telemetry record, and a per-replica tally of recent blocks
 * for /_guard/status.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { type GuardEventKind, type TelemetrySink, telemetryRecord } from './telemetry.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** How far back /_guard/status counts recent blocks. */
export const RECENT_WINDOW_SECONDS = 900;

type RecentKind = 'waf' | 'banned' | 'rate_limited' | 'suspicious';

export interface RecentBlocks {
  window_seconds: number;
  waf: number;
  banned: number;
  rate_limited: number;
  suspicious: number;
}

export class GuardEvents {
  readonly #log: FastifyBaseLogger;
  readonly #level: LogLevel;
  readonly #telemetry: TelemetrySink;
  readonly #recent: Record<RecentKind, number[]> = {
    waf: [],
    banned: [],
    rate_limited: [],
    suspicious: [],
  };

  constructor(options: { log: FastifyBaseLogger; level: LogLevel; telemetry: TelemetrySink }) {
    this.#log = options.log;
    this.#level = options.level;
    this.#telemetry = options.telemetry;
  }

  get telemetry(): TelemetrySink {
    return this.#telemetry;
  }

  /** Logs and reports one guard event; `message` is for operators, never sent to the client. */
  record(
    kind: GuardEventKind,
    request: FastifyRequest,
    rule: string,
    message: string,
    detail?: Record<string, unknown>,
  ): void {
    if (kind === 'blocked') this.tally('waf');
    else if (kind === 'rate_limited' || kind === 'suspicious') this.tally(kind);
    if (this.#level !== 'silent') {
      this.#log[this.#level](
        {
          guard: {
            kind,
            rule,
            client_ip: request.ip,
            method: request.method,
            path: request.url.split('?', 1)[0],
            ...detail,
          },
          correlation_id: request.id,
        },
        `guard: ${message}`,
      );
    }
    this.#telemetry.emit(telemetryRecord(kind, request, rule, detail));
  }

  /** Counts a block for /_guard/status without logging it (a banned scanner is not logged per request). */
  tally(kind: RecentKind): void {
    this.#push(this.#recent[kind]);
  }

  recentBlocks(now = Date.now()): RecentBlocks {
    const since = now - RECENT_WINDOW_SECONDS * 1000;
    const count = (list: number[]) => {
      while (list.length > 0 && (list[0] ?? 0) < since) list.shift();
      return list.length;
    };
    return {
      window_seconds: RECENT_WINDOW_SECONDS,
      waf: count(this.#recent.waf),
      banned: count(this.#recent.banned),
      rate_limited: count(this.#recent.rate_limited),
      suspicious: count(this.#recent.suspicious),
    };
  }

  #push(list: number[]) {
    list.push(Date.now());
    if (list.length > 10_000) list.splice(0, list.length - 10_000);
  }
}
