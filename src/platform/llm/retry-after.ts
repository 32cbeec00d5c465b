/**
 * How long a provider asks to be left alone, from its answer's headers (pure): `retry-after-ms`
 * (milliseconds, sent by OpenAI-compatible servers) wins over `retry-after`, which is either
 * delta-seconds (`30`, `1.5`) or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`). Whole seconds,
 * rounded up; a date in the past is 0; absent or unreadable is undefined.
 */

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

const NUMBER = /^\d+(\.\d+)?$/;

export function retryAfterSeconds(headers: HeaderSource, nowMs: number): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms')?.trim();
  if (ms && NUMBER.test(ms)) return Math.ceil(Number(ms) / 1000);
  const value = headerValue(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (NUMBER.test(value)) return Math.ceil(Number(value));
  // An HTTP-date names its weekday and zone; a bare number was handled above.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
