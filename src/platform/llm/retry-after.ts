/**
 * How long a provider asks to be left alone, from its answer's headers (pure): `retry-after-ms`
 * (milliseconds, sent by OpenAI-compatible servers) wins over `retry-after`, which is either
 * delta-seconds (`30`, `1.5`) or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`). Whole seconds,
 * rounded up; a date in the past is 0; absent or unreadable is undefined.
 */
import { DECIMAL, retryAfterMs } from '../retry-after.js';

/** A header lookup: a fetch `Headers`, or a plain record with lower-case names. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>
  | undefined
  | null;

export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

export function retryAfterSeconds(headers: HeaderSource, nowMs: number): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms')?.trim();
  const waitMs =
    ms && DECIMAL.test(ms) ? Number(ms) : retryAfterMs(headerValue(headers, 'retry-after'), nowMs);
  return waitMs === undefined ? undefined : Math.ceil(waitMs / 1000);
}
