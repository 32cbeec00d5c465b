/**
 * The small HTTP vocabulary of the fake forge: an API request as the handlers see it, the reply
 * they give, and a path-pattern matcher (`repos/:owner/:repo/pulls/:number`).
 */
import type { FakeForgeState } from './state.js';

export interface ApiRequest {
  method: string;
  /** Path segments after the API prefix, each percent-decoded. */
  segments: string[];
  query: Record<string, string>;
  body: Record<string, unknown>;
  state: FakeForgeState;
  /** `http://127.0.0.1:<port>`: the base of every html_url. */
  webUrl: string;
  /** The API base (`…/api/v3` or `…/api/v1`), for `url` fields. */
  apiUrl: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (request: ApiRequest, params: Record<string, string>) => Reply;

export interface Route {
  method: string;
  pattern: string;
  handler: Handler;
}

export function route(method: string, pattern: string, handler: Handler): Route {
  return { method, pattern, handler };
}

/** The first route matching method and segments, with its named parameters. */
export function findRoute(
  routes: Route[],
  method: string,
  segments: string[],
): { route: Route; params: Record<string, string> } | undefined {
  for (const candidate of routes) {
    if (candidate.method !== method) continue;
    const parts = candidate.pattern.split('/');
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.startsWith(':')) params[part.slice(1)] = segments[i]!;
      else if (part !== segments[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return { route: candidate, params };
  }
  return undefined;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
