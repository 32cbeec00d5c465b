/**
 * What the guard knows about a request's client, worked out once per request and kept on it: the
 * client address (Fastify's `request.ip` re-reads X-Forwarded-For through the trusted-proxy check
 * on every access, and the ban check, the rate limiter and the behaviour rules each need it),
 * whether the caller is internal (internal-network.ts) and whether the path is excluded
 * (exclusions.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AddressCheck, isRelayed } from '../internal-network.js';
import { excludedPathMatcher } from './exclusions.js';

export interface GuardClient {
  /** The client address: `request.ip`, read once. */
  ip: string;
  internal: boolean;
  excluded: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard on first use (client.ts); null before. */
    guardClient: GuardClient | null;
  }
}

export type ClientJudge = (request: FastifyRequest) => GuardClient;

/** Decorates the requests of `app` and answers the judge that fills the decoration. */
export function registerClientJudge(
  app: FastifyInstance,
  isInternal: AddressCheck,
  excludePaths: readonly string[],
): ClientJudge {
  app.decorateRequest('guardClient', null);
  const isExcluded = excludedPathMatcher(excludePaths);
  return (request) => {
    let client = request.guardClient;
    if (client === null) {
      const ip = request.ip;
      client = {
        ip,
        internal: !isRelayed(request) && isInternal(ip),
        excluded: isExcluded(request.url),
      };
      request.guardClient = client;
    }
    return client;
  };
}
