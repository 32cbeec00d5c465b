/**
 * Argument checks shared by every cache and lock implementation, so that all of them accept and
 * refuse the same inputs (Redis itself rejects a non-positive PX and a fractional INCRBY).
 */

/** Whole milliseconds, at least 1; a fractional ttl rounds up so it never becomes 0. */
export function ttlMilliseconds(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new RangeError(`ttlMs must be a positive number, got ${ttlMs}`);
  return Math.ceil(ttlMs);
}

export function incrementAmount(by: number | undefined): number {
  const amount = by ?? 1;
  if (!Number.isSafeInteger(amount)) throw new RangeError(`incr "by" must be a safe integer, got ${by}`);
  return amount;
}
