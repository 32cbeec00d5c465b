/**
 * The wire formats of the three search providers, each turned into the same normalized result
 * list. Plain fetch with a timeout; the API key travels in a header and no raw error text leaves
 * this file — a failure is a `SearchProviderError` naming the provider and the HTTP status only.
 */

export const SEARCH_PROVIDERS = ['tavily', 'brave', 'exa'] as const;
export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number];

export const DEFAULT_BASE_URLS: Record<SearchProviderName, string> = {
  tavily: 'https://api.tavily.com',
  brave: 'https://api.search.brave.com',
  exa: 'https://api.exa.ai',
};

export interface SearchTarget {
  provider: SearchProviderName;
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  /** The provider's relevance score (0–1), or null when it gives none (Brave). */
  score: number | null;
}

export interface SearchAnswer {
  /** A provider-written summary answer (Tavily), else null. */
  answer: string | null;
  results: SearchResult[];
}

export class SearchProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchProviderError';
  }
}

const SNIPPET_CHARS = 500;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const snippet = (value: unknown): string => text(value).replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS);
const scoreOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const list = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
    : [];

interface Request {
  url: string;
  init: RequestInit;
  parse(payload: Record<string, unknown>): SearchAnswer;
}

function tavily(target: SearchTarget, query: string, count: number): Request {
  return {
    url: `${target.baseUrl}/search`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.apiKey}` },
      body: JSON.stringify({ query, max_results: count, search_depth: 'basic', include_answer: true }),
    },
    parse: (payload) => ({
      answer: text(payload.answer) || null,
      results: list(payload.results).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: snippet(r.content),
        score: scoreOf(r.score),
      })),
    }),
  };
}

function brave(target: SearchTarget, query: string, count: number): Request {
  const params = new URLSearchParams({ q: query, count: String(count) });
  return {
    url: `${target.baseUrl}/res/v1/web/search?${params}`,
    init: { method: 'GET', headers: { accept: 'application/json', 'x-subscription-token': target.apiKey } },
    parse: (payload) => {
      const web = (payload.web ?? {}) as Record<string, unknown>;
      return {
        answer: null,
        results: list(web.results).map((r) => ({
          title: text(r.title),
          url: text(r.url),
          snippet: snippet(r.description),
          score: null,
        })),
      };
    },
  };
}

function exa(target: SearchTarget, query: string, count: number): Request {
  return {
    url: `${target.baseUrl}/search`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': target.apiKey },
      body: JSON.stringify({
        query,
        numResults: count,
        contents: { text: { maxCharacters: SNIPPET_CHARS } },
      }),
    },
    parse: (payload) => ({
      answer: null,
      results: list(payload.results).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: snippet(r.text) || snippet(Array.isArray(r.highlights) ? r.highlights.join(' ') : ''),
        score: scoreOf(r.score),
      })),
    }),
  };
}

const WIRES = { tavily, brave, exa } satisfies Record<SearchProviderName, unknown>;

/** One search against the target provider; at most `count` results, in the provider's order. */
export async function searchWith(target: SearchTarget, query: string, count: number): Promise<SearchAnswer> {
  const request = WIRES[target.provider](
    { ...target, baseUrl: target.baseUrl.replace(/\/+$/, '') },
    query,
    count,
  );
  let response: Response;
  try {
    response = await fetch(request.url, { ...request.init, signal: AbortSignal.timeout(target.timeoutMs) });
  } catch (error) {
    const kind = error instanceof Error ? error.name : 'Error';
    const reason =
      kind === 'TimeoutError' ? `timed out after ${target.timeoutMs} ms` : `could not be reached (${kind})`;
    throw new SearchProviderError(`the ${target.provider} search API ${reason}`);
  }
  const payload = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok || payload === null || typeof payload !== 'object') {
    throw new SearchProviderError(`the ${target.provider} search API answered HTTP ${response.status}`);
  }
  const answer = request.parse(payload);
  return { answer: answer.answer, results: answer.results.filter((r) => r.url).slice(0, count) };
}
