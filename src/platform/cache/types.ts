/**
 * The cache store and the distributed locks. Redis backs both when GAFFER_REDIS_URL is set;
 * otherwise the cache is in-process and locks are Postgres leases. Redis holds nothing that
 * cannot be rebuilt: durable state lives in the database.
 */
export interface Cache {
  readonly mode: 'redis' | 'embedded';
  get(key: string): Promise<string | null>;
  /** Stores a value; with `ttlMs` it disappears after that many milliseconds. */
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  del(key: string): Promise<void>;
  /** Atomically adds `by` (default 1) and returns the new value; `ttlMs` applies when the key is created. */
  incr(key: string, options?: { by?: number; ttlMs?: number }): Promise<number>;
  publish(channel: string, message: string): Promise<void>;
  /** Calls `handler` for every message published on `channel` (by any replica); returns an unsubscribe. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  /** Resolves when the store answers; rejects when it is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Proof of holding a lock. `fencingToken` grows with every successful acquisition of the name. */
export interface Lease {
  readonly name: string;
  readonly owner: string;
  readonly fencingToken: number;
}

export interface Locks {
  readonly kind: 'redis' | 'postgres';
  /** Takes the lock for `ttlMs` if nobody holds it (or the holder's lease expired); null otherwise. */
  acquire(name: string, ttlMs: number): Promise<Lease | null>;
  /** Extends a lease this owner still holds; false when it was lost (expired and taken). */
  refresh(lease: Lease, ttlMs: number): Promise<boolean>;
  /** Releases the lock only if this lease still holds it; false otherwise. */
  release(lease: Lease): Promise<boolean>;
}
