/**
 * Behaviour rules on responses (response-rules.ts): each counts its occurrences per client within
 * its window and, at its threshold, logs one suspicious-activity record. They only log; none bans.
 * Internal callers and excluded paths are not tracked. Body rules read the response body only when
 * GAFFER_GUARD_SCAN_RESPONSE_BODY is on (otherwise they are not loaded at all).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cache } from '../../cache/index.js';
import type { GuardEvents } from './events.js';
import { type ResponseRule, responseMatches } from './response-rules.js';
import { authFailureKind } from './stale-token.js';

/** Bytes of a response body the body rules read. */
export const RESPONSE_SCAN_BYTES = 65_536;

export class BehaviourRules {
  readonly #statusRules: ResponseRule[];
  readonly #bodyRules: ResponseRule[];
  readonly #cache: Cache;
  readonly #events: GuardEvents;

  constructor(options: { rules: ResponseRule[]; cache: Cache; events: GuardEvents }) {
    this.#statusRules = options.rules.filter((rule) => !rule.bodyPattern);
    this.#bodyRules = options.rules.filter((rule) => rule.bodyPattern);
    this.#cache = options.cache;
    this.#events = options.events;
  }

  get readsBodies(): boolean {
    return this.#bodyRules.length > 0;
  }

  /** Whether a status-only rule counts responses with `statusCode`. */
  watches(statusCode: number): boolean {
    return this.#statusRules.some((rule) => responseMatches(rule, statusCode, undefined));
  }

  /** onResponse: the status-only rules, counted per client `address`. */
  async afterResponse(request: FastifyRequest, reply: FastifyReply, address: string): Promise<void> {
    for (const rule of this.#statusRules) {
      if (responseMatches(rule, reply.statusCode, undefined))
        await this.#count(rule, request, address, reply.statusCode);
    }
  }

  /** onSend: the body rules, on string or buffer payloads (streams and files are not read). */
  async onPayload(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    address: string,
  ): Promise<void> {
    if (this.#bodyRules.length === 0) return;
    const body =
      typeof payload === 'string'
        ? payload.slice(0, RESPONSE_SCAN_BYTES)
        : Buffer.isBuffer(payload)
          ? payload.subarray(0, RESPONSE_SCAN_BYTES).toString('utf8')
          : undefined;
    if (body === undefined) return;
    for (const rule of this.#bodyRules) {
      if (responseMatches(rule, reply.statusCode, body))
        await this.#count(rule, request, address, reply.statusCode);
    }
  }

  async #count(
    rule: ResponseRule,
    request: FastifyRequest,
    address: string,
    statusCode: number,
  ): Promise<void> {
    try {
      const count = await this.#cache.incr(`guard:rule:${rule.name}:${address}`, {
        ttlMs: rule.windowSeconds * 1000,
      });
      if (count !== rule.threshold) return;
      this.#events.record('suspicious', request, rule.name, `suspicious activity: ${rule.description}`, {
        count,
        window_seconds: rule.windowSeconds,
        status: statusCode,
        ...(statusCode === 401 ? { auth_failure: authFailureKind(request) } : {}),
      });
    } catch (error) {
      request.log.debug({ err: (error as Error).message }, 'guard: behaviour counter unavailable');
    }
  }
}
