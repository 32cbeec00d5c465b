/**
 * Reads an agent CLI's output for a model provider's rate limit or overload (pure): Claude Code's
 * stream-json (an `error` field such as `"rate_limit"`, an error `result`, `API Error: 429 …`,
 * `Claude AI usage limit reached|<epoch>`), Codex's JSON events (`{"type":"error"}`,
 * `turn.failed`, `stream_error`, `{"msg":{"type":"error"}}`) and plain text (`429`, `rate limit
 * reached`, `Too Many Requests`, `529 overloaded`), with the wait it hints at: a Retry-After,
 * `try again in 1m30s`, `retry after 20 seconds`, or a reset time as epoch seconds.
 *
 * Only error events of the JSON formats are read (never tool output or the model's own text, where
 * an agent working on rate limiting would talk about them); a plain line needs an error's wording.
 */

export interface CliRateLimit {
  kind: 'rate_limited' | 'overloaded';
  /** Seconds to wait, when the line says; null otherwise. */
  retryAfterSeconds: number | null;
}

/** Lines longer than this are output, not an error message. */
const MAX_LINE = 4_000;

const OVERLOADED = /overloaded|\b529\b/i;
const RATE_LIMITED =
  /\b429\b|rate[ _-]?limit|too many requests|usage limit|quota exceeded|insufficient_quota|resource_exhausted/i;
/** A plain-text line must read as an error to count (not a sentence that mentions rate limits). */
const PLAIN_ERROR =
  /\b(429|529)\b.*(error|too many|rate|overload|limit)|(error|status|http)\W+(429|529)\b|rate[ _-]?limit(ed)?\s*(reached|exceeded|hit|error)|rate_limit_error|overloaded_error|too many requests|usage limit reached|you'?ve hit your usage limit/i;

const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };

/** The rate limit one line of output reports, or null. `nowMs` reads a reset time. */
export function parseCliRateLimit(line: string, nowMs: number): CliRateLimit | null {
  const text = line.trim();
  if (!text || text.length > MAX_LINE) return null;
  if (text.startsWith('{')) {
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      return plain(text, nowMs);
    }
    const error = errorTextOf(event);
    if (error === null) return null;
    return classify(error, nowMs, retryFieldOf(event, nowMs));
  }
  return plain(text, nowMs);
}

/** Every line of a chunk of output, first report wins. */
export function scanCliRateLimit(chunk: string, nowMs: number): CliRateLimit | null {
  for (const line of chunk.split('\n')) {
    const found = parseCliRateLimit(line, nowMs);
    if (found) return found;
  }
  return null;
}

function plain(text: string, nowMs: number): CliRateLimit | null {
  if (!PLAIN_ERROR.test(text)) return null;
  return classify(text, nowMs, null);
}

function classify(text: string, nowMs: number, fieldWait: number | null): CliRateLimit | null {
  const overloaded = OVERLOADED.test(text);
  if (!overloaded && !RATE_LIMITED.test(text)) return null;
  return {
    kind: overloaded && !/\b429\b|rate[ _-]?limit/i.test(text) ? 'overloaded' : 'rate_limited',
    retryAfterSeconds: fieldWait ?? waitIn(text, nowMs),
  };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The error text of a JSON event, or null when the event is no error: Claude Code's error field or
 * error result, Codex's error / turn.failed / stream_error events (bare or under `msg`), the Gemini
 * CLI's error result (`"status": "error"`).
 */
export function errorTextOf(event: unknown): string | null {
  if (!isObject(event)) return null;
  const inner = isObject(event.msg) ? event.msg : event;
  const type = typeof inner.type === 'string' ? inner.type : '';
  const parts: unknown[] = [];
  if (type === 'error' || type === 'stream_error' || type === 'turn.failed') {
    parts.push(inner.message, inner.error, inner.status, inner.code);
  } else if (
    type === 'result' &&
    (inner.is_error === true || /^error/.test(String(inner.subtype ?? '')) || inner.status === 'error')
  ) {
    parts.push(inner.result, inner.error, inner.subtype);
  } else if (type === 'assistant' && inner.error !== undefined) {
    // Claude Code marks the message it synthesises from an API failure (`"error": "rate_limit"`).
    parts.push(inner.error, textOf(inner.message));
  } else if (type === 'system' && /retry/.test(String(inner.subtype ?? ''))) {
    parts.push(inner.error, inner.error_status, inner.message);
  } else return null;
  const text = parts
    .filter((part) => part !== undefined && part !== null)
    .map((part) =>
      typeof part === 'string'
        ? part
        : isObject(part) && typeof part.message === 'string'
          ? `${typeof part.type === 'string' ? `${part.type}: ` : ''}${part.message}`
          : JSON.stringify(part),
    )
    .join(' ');
  return text || null;
}

function textOf(message: unknown): string {
  if (!isObject(message) || !Array.isArray(message.content)) return '';
  return message.content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .join(' ');
}

/** A wait given as a field of the event (`retry_after`, `retry_after_seconds`, `resets_at` epoch). */
function retryFieldOf(event: unknown, nowMs: number): number | null {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): number | null => {
    if (!isObject(value) || depth > 4 || seen.has(value)) return null;
    seen.add(value);
    for (const [key, field] of Object.entries(value)) {
      const name = key.toLowerCase().replace(/[_-]/g, '');
      if (typeof field === 'number' && Number.isFinite(field)) {
        if (name === 'retryafter' || name === 'retryafterseconds') return Math.max(0, Math.ceil(field));
        if (name === 'retryafterms') return Math.max(0, Math.ceil(field / 1000));
        if (name === 'resetsat' || name === 'resetat') return untilEpoch(field, nowMs);
      }
      const nested = visit(field, depth + 1);
      if (nested !== null) return nested;
    }
    return null;
  };
  return visit(event, 0);
}

function untilEpoch(epoch: number, nowMs: number): number | null {
  const ms = epoch > 1e12 ? epoch : epoch * 1000;
  if (ms < Date.UTC(2000, 0, 1)) return null;
  return Math.max(0, Math.ceil((ms - nowMs) / 1000));
}

/** The wait a message hints at, in seconds; null when it names none. */
export function waitIn(text: string, nowMs: number): number | null {
  const header =
    /retry[- ]after(?:-ms)?\W{0,3}(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec|secs|seconds?)?\b/i.exec(text);
  if (header) {
    const ms = /-ms|ms|milli/i.test(header[0]);
    return Math.max(0, Math.ceil(Number(header[1]) * (ms ? 0.001 : 1)));
  }
  const phrase =
    /(?:try again|retry|resets?|available again)\s+in\s+((?:\d+(?:\.\d+)?\s*(?:ms|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])[\s,]*(?:and\s+)?)+)/i.exec(
      text,
    );
  if (phrase) return durationSeconds(phrase[1]!);
  const epoch = /(?:\||resets?(?:_at| at)?\W{0,3})(\d{10})(?!\d)/i.exec(text);
  if (epoch) return untilEpoch(Number(epoch[1]), nowMs);
  return null;
}

function durationSeconds(text: string): number {
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)\s*(ms|h|m|s)/gi)) {
    total += Number(amount) * (UNIT_SECONDS[unit!.toLowerCase()] ?? 0);
  }
  return Math.max(0, Math.ceil(total));
}
