/**
 * A `Retry-After` value (pure): delta-seconds (`30`, `1.5`) or an HTTP-date
 * (`Wed, 21 Oct 2026 07:28:00 GMT`), as milliseconds from `nowMs`; a date in the past is 0; absent
 * or unreadable is undefined. Read by the model providers' and the forges' retry policies.
 */

/** A non-negative decimal: delta-seconds, or `retry-after-ms`'s milliseconds. */
export const DECIMAL = /^\d+(\.\d+)?$/;

export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (DECIMAL.test(text)) return Number(text) * 1000;
  // An HTTP-date names its weekday and zone; a bare number was handled above.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
