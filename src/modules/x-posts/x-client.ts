/**
 * One X API v2 call, `POST /2/tweets {text}`, with a user bearer token. No token and no raw error
 * text leaves this file: a failure is an `XPostError` built from the status and X's own `title` /
 * `detail`, scrubbed of the token.
 */

export const DEFAULT_X_API_URL = 'https://api.x.com';

export interface XTarget {
  baseUrl: string;
  bearerToken: string;
  timeoutMs: number;
}

export class XPostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XPostError';
  }
}

const scrub = (text: string, secret: string): string =>
  secret ? text.split(secret).join('[redacted]') : text;

/** Posts `text`; answers the new post's id. */
export async function postTweet(target: XTarget, text: string): Promise<{ id: string }> {
  const url = `${target.baseUrl.replace(/\/+$/, '')}/2/tweets`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.bearerToken}` },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (error) {
    const kind = error instanceof Error ? error.name : 'Error';
    throw new XPostError(
      kind === 'TimeoutError'
        ? `X API timed out after ${target.timeoutMs} ms`
        : `X API could not be reached (${kind})`,
    );
  }
  const payload = (await response.json().catch(() => null)) as {
    data?: { id?: unknown };
    title?: unknown;
    detail?: unknown;
  } | null;
  if (response.status === 201 && typeof payload?.data?.id === 'string') return { id: payload.data.id };
  const said = [payload?.title, payload?.detail].filter((v): v is string => typeof v === 'string').join(': ');
  const retry = response.headers.get('x-rate-limit-reset');
  const hint = response.status === 429 && retry ? ` (rate limit resets at ${retry})` : '';
  throw new XPostError(
    scrub(
      `X API answered HTTP ${response.status}${said ? ` — ${said.slice(0, 300)}` : ''}${hint}`,
      target.bearerToken,
    ),
  );
}
