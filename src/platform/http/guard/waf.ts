/**
 * The WAF: a request whose path, query or JSON body carries a well-known attack payload is refused
 * with 403 and a generic body (no rule detail), logged, and counted toward a ban. It applies to
 * everyone, internal callers included, except on GAFFER_GUARD_EXCLUDE_PATHS; request headers
 * (tokens, cookies, tracing ids) are never read. Fields where such text is legitimate are skipped
 * per route (waf-allow-list.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../conventions.js';
import { AppError } from '../errors.js';
import type { Bans } from './bans.js';
import type { GuardEvents } from './events.js';
import { type AllowedFields, allowedFieldsFor } from './waf-allow-list.js';
import type { WafHit } from './waf-patterns.js';
import { scanBody, scanUrl } from './waf-scan.js';

export const BLOCKED_MESSAGE = 'request blocked by security policy';

export class Waf {
  readonly #bans: Bans;
  readonly #events: GuardEvents;
  /** Allowed fields by route pattern, worked out once per route (the routes are a fixed set). */
  readonly #allowed = new Map<string | undefined, AllowedFields>();

  constructor(options: { bans: Bans; events: GuardEvents }) {
    this.#bans = options.bans;
    this.#events = options.events;
  }

  /** onRequest: path and query. True (once the refusal is sent) when the request was refused; a clean URL answers at once. */
  refuseUrl(request: FastifyRequest, reply: FastifyReply): false | Promise<boolean> {
    const hit = scanUrl(request.url, request.query, this.#allowedFor(request.routeOptions.url));
    return hit ? this.#refuse(request, reply, hit) : false;
  }

  /** preValidation: the parsed JSON body. */
  refuseBody(request: FastifyRequest, reply: FastifyReply): false | Promise<boolean> {
    if (request.body === undefined || request.body === null) return false;
    const hit = scanBody(request.body, this.#allowedFor(request.routeOptions.url));
    return hit ? this.#refuse(request, reply, hit) : false;
  }

  #allowedFor(routeUrl: string | undefined): AllowedFields {
    let allowed = this.#allowed.get(routeUrl);
    if (!allowed) {
      allowed = allowedFieldsFor(routeUrl);
      this.#allowed.set(routeUrl, allowed);
    }
    return allowed;
  }

  async #refuse(request: FastifyRequest, reply: FastifyReply, hit: WafHit): Promise<boolean> {
    this.#events.record('blocked', request, `waf:${hit.category}`, `blocked a ${hit.category} payload`, {
      category: hit.category,
      where: hit.where,
    });
    await this.#bans.countHit(request, hit);
    sendError(request, reply, new AppError(403, 'request_blocked', BLOCKED_MESSAGE));
    return true;
  }
}
