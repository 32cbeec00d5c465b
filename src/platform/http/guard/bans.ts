/**
 * IP bans. WAF hits (attack payloads and scanner probes) from one address are counted within
 * GAFFER_GUARD_BAN_WINDOW_SECONDS; at GAFFER_GUARD_BAN_THRESHOLD the address is banned for
 * GAFFER_GUARD_BAN_SECONDS. A ban refuses every request from the address with 403 — internal
 * addresses included (bans override the whitelist). Only WAF hits feed the counter: a 401 never
 * does (see stale-token.ts). A store that fails is logged and the request let through (fail open):
 * the WAF and rate limits still stand.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cache } from '../../cache/index.js';
import type { Clock } from '../../clock.js';
import { sendError } from '../conventions.js';
import { AppError } from '../errors.js';
import type { Ban, BanStore } from './ban-store.js';
import type { GuardEvents } from './events.js';
import type { WafHit } from './waf-patterns.js';

export interface BanPolicy {
  threshold: number;
  windowSeconds: number;
  banSeconds: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The guard's own ban routes: a banned address may still reach them (they require the CEO). */
    guardBanExempt?: boolean;
  }
}

export class Bans {
  readonly store: BanStore;
  readonly #cache: Cache;
  readonly #clock: Clock;
  readonly #policy: BanPolicy;
  readonly #events: GuardEvents;

  constructor(options: {
    store: BanStore;
    cache: Cache;
    clock: Clock;
    policy: BanPolicy;
    events: GuardEvents;
  }) {
    this.store = options.store;
    this.#cache = options.cache;
    this.#clock = options.clock;
    this.#policy = options.policy;
    this.#events = options.events;
  }

  /**
   * onRequest: answers 403 to a banned address (the request's client, `address`); true when it did.
   * Synchronous when the store is (the in-process one), so most requests pass without a promise.
   */
  refuseBanned(request: FastifyRequest, reply: FastifyReply, address: string): boolean | Promise<boolean> {
    if (request.routeOptions.config?.guardBanExempt) return false;
    const now = this.#clock.now();
    let found: ReturnType<BanStore['find']>;
    try {
      found = this.store.find(address, now);
    } catch (error) {
      return unchecked(request, error);
    }
    if (found instanceof Promise) {
      return found.then(
        (ban) => this.#refuse(request, reply, ban, now),
        (error: unknown) => unchecked(request, error),
      );
    }
    return this.#refuse(request, reply, found, now);
  }

  #refuse(request: FastifyRequest, reply: FastifyReply, ban: Ban | null, now: Date): boolean {
    if (!ban) return false;
    const secondsLeft = Math.max(1, Math.ceil((Date.parse(ban.expires_at) - now.getTime()) / 1000));
    this.#events.tally('banned');
    reply.header('retry-after', String(secondsLeft));
    sendError(
      request,
      reply,
      new AppError(
        403,
        'address_banned',
        'this address is banned for a while after repeated blocked requests',
      ),
    );
    return true;
  }

  /** Counts one WAF hit from the request's address; bans it at the threshold. */
  async countHit(request: FastifyRequest, hit: WafHit): Promise<void> {
    const address = request.ip;
    const { threshold, windowSeconds, banSeconds } = this.#policy;
    try {
      const hits = await this.#cache.incr(`guard:hits:${address}`, { ttlMs: windowSeconds * 1000 });
      if (hits < threshold) return;
      const now = this.#clock.now();
      const reason = `${hits} blocked requests within ${windowSeconds} s (last: ${hit.category})`;
      await this.store.add({
        address,
        reason,
        banned_at: now.toISOString(),
        expires_at: new Date(now.getTime() + banSeconds * 1000).toISOString(),
      });
      await this.#cache.del(`guard:hits:${address}`);
      this.#events.record('banned', request, 'ip-ban', `banned ${address} for ${banSeconds} s`, {
        reason,
        ban_seconds: banSeconds,
      });
    } catch (error) {
      request.log.warn(
        { err: (error as Error).message },
        'guard: could not count a blocked request toward a ban',
      );
    }
  }
}

/** A ban store that failed: logged, and the request let through (fail open). */
function unchecked(request: FastifyRequest, error: unknown): false {
  request.log.warn({ err: (error as Error).message }, 'guard: ban store unavailable; not checked');
  return false;
}
