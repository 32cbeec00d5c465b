/**
 * Rate limits on @fastify/rate-limit, stored in Redis when it is configured (the limit holds across
 * replicas) and in memory otherwise:
 * - general: GAFFER_GUARD_RATE_LIMIT_PER_MINUTE per client — the authenticated identity when there
 *   is one, else the client address; unmatched paths count against the address too;
 * - sensitive routes (route-groups.ts): GAFFER_GUARD_SENSITIVE_RATE_LIMIT_PER_MINUTE, a counter per route;
 * - failed authentications: GAFFER_GUARD_AUTH_FAILURES_PER_MINUTE 401s per address, then 429 for
 *   the rest of the minute (a rate limit, never a ban).
 * Internal callers are exempt. Over a limit: 429, Retry-After, the standard error body. A store
 * that fails lets the request through (skipOnError).
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config.js';
import type { Cache } from '../../cache/index.js';
import { sendError } from '../conventions.js';
import { AppError } from '../errors.js';
import { redisOf } from './ban-store.js';
import type { ClientJudge } from './client.js';
import type { GuardEvents } from './events.js';
import { routeGroup } from './route-groups.js';

const MINUTE_MS = 60_000;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

export interface RateLimits {
  /**
   * onRequest: 429 when the address used up its failed authentications, or (unmatched paths) its
   * general limit; true when it refused. Matched routes answer at once (their limit is the plugin's).
   */
  refuseOverLimit(request: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean>;
  /** onResponse of a 401: counts one failed authentication. */
  countAuthFailure(request: FastifyRequest): Promise<void>;
}

export async function registerRateLimits(
  app: FastifyInstance,
  options: {
    config: Config;
    cache: Cache;
    judge: ClientJudge;
    events: GuardEvents;
  },
): Promise<RateLimits> {
  const { config, cache, judge, events } = options;
  // Runs before the plugin's own onRoute hook (registered below), so the plugin sees the group's limit.
  app.addHook('onRoute', (route) => {
    if (route.config?.rateLimit !== undefined || routeGroup(route.method, route.url) !== 'sensitive') return;
    route.config = {
      ...route.config,
      rateLimit: { max: config.guardSensitiveRateLimitPerMinute, timeWindow: MINUTE_MS },
    };
  });

  const redis = redisOf(cache);
  await app.register(rateLimit, {
    global: true,
    max: config.guardRateLimitPerMinute,
    timeWindow: MINUTE_MS,
    ...(redis ? { redis: redis.client, nameSpace: `${redis.keyPrefix}guard:rate:` } : {}),
    skipOnError: true,
    // Under the limit nothing is added (three headers on every response cost a tenth of a cheap
    // route's throughput); a 429 carries the limit headers and Retry-After.
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    keyGenerator: (request) => (request.identity ? `id:${request.identity.id}` : `ip:${judge(request).ip}`),
    allowList: (request) => judge(request).internal,
    errorResponseBuilder: (request, context) => {
      events.record(
        'rate_limited',
        request,
        'rate-limit',
        `rate limit of ${context.max} per minute reached`,
        {
          limit: context.max,
        },
      );
      return tooManyRequests(Math.ceil(context.ttl / 1000));
    },
  });

  const general: Limiter = app.createRateLimit();
  const authFailures: Limiter = app.createRateLimit({
    max: config.guardAuthFailuresPerMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `auth-failure:${judge(request).ip}`,
  });

  const refuse = (
    request: FastifyRequest,
    reply: FastifyReply,
    seconds: number,
    rule: string,
    message: string,
  ) => {
    events.record('rate_limited', request, rule, message);
    reply.header('retry-after', String(seconds));
    sendError(request, reply, tooManyRequests(seconds));
    return true;
  };

  // Addresses that used up their failed authentications, until when (ms). Filled from the shared
  // counter when a 401 is counted, so the per-request check is a map lookup, not a store call.
  const failedOut = new Map<string, number>();

  return {
    refuseOverLimit(request, reply) {
      const { ip } = judge(request);
      const until = failedOut.get(ip);
      if (until !== undefined) {
        const seconds = Math.ceil((until - Date.now()) / 1000);
        if (seconds > 0) {
          return refuse(
            request,
            reply,
            seconds,
            'auth-failure-limit',
            `${config.guardAuthFailuresPerMinute} failed authentications within a minute`,
          );
        }
        failedOut.delete(ip);
      }
      // Matched routes carry the plugin's own hook; a path no route matches is limited here.
      if (request.routeOptions.url !== undefined) return false;
      return general(request).then((limit) =>
        !limit.isAllowed && limit.isExceeded
          ? refuse(
              request,
              reply,
              limit.ttlInSeconds,
              'rate-limit',
              `rate limit of ${limit.max} per minute reached`,
            )
          : false,
      );
    },
    async countAuthFailure(request) {
      const counted = await authFailures(request);
      if (!counted.isAllowed && counted.remaining === 0 && counted.ttl > 0) {
        failedOut.set(judge(request).ip, Date.now() + counted.ttl);
        if (failedOut.size > 10_000) failedOut.delete(failedOut.keys().next().value as string);
      }
    },
  };
}

function tooManyRequests(retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, retryAfterSeconds);
  return new AppError(429, 'rate_limited', `too many requests; retry in ${seconds} s`, {
    retry_after_seconds: seconds,
  });
}
