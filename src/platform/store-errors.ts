/**
 * "A backing store cannot be reached", recognised in one place. The cache tags its own failures
 * (`StoreUnreachableError` with store `cache`, see cache/redis.ts); database failures are recognised
 * from node-postgres, PGlite and Drizzle errors (db/errors.ts). The HTTP error handler answers both
 * with 503 `store_unavailable`; nothing here ever exposes a driver message or SQL to a caller.
 */
import { isDatabaseUnreachable } from './db/errors.js';

export type StoreName = 'database' | 'cache';

/** A store failed to answer; `cause` keeps the driver error (for logs only). */
export class StoreUnreachableError extends Error {
  constructor(
    readonly store: StoreName,
    options: { cause?: unknown } = {},
  ) {
    super(`the ${store} is unreachable`, options);
    this.name = 'StoreUnreachableError';
  }
}

/** Which store an error says is unreachable, or null when it is some other failure. */
export function unreachableStore(error: unknown): StoreName | null {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (current instanceof StoreUnreachableError) return current.store;
    current = (current as { cause?: unknown }).cause;
  }
  return isDatabaseUnreachable(error) ? 'database' : null;
}

/**
 * A message about a failure that is safe to show a caller or to store in a row: never SQL, never a
 * driver's text. Store outages are named; other database failures are summed up; other errors keep
 * their own message (they are the application's own).
 */
export function safeFailureMessage(error: unknown): string {
  const store = unreachableStore(error);
  if (store) return `the ${store} is unreachable`;
  if (isDatabaseError(error)) return 'a database operation failed';
  return error instanceof Error ? error.message : String(error);
}

/** Whether an error came from the database driver (through Drizzle or not). */
function isDatabaseError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const name = (current as { constructor?: { name?: string } }).constructor?.name;
    if (name === 'DrizzleQueryError' || name === 'DatabaseError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
