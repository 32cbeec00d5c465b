/**
 * Distributed locks as rows of the `leases` table (kind `postgres`), used when Redis is not
 * configured; they work on embedded PGlite and on a PostgreSQL shared by several replicas. Every
 * expiry is computed and judged by the database clock (`now()`), never the application's, so
 * replicas whose clocks disagree still agree on who holds a lease. A row is never deleted: its
 * `fencing_token` is the counter that makes tokens grow, so release marks the lease expired.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { leases } from './schema.js';
import { ttlMilliseconds } from './ttl.js';
import type { Lease, Locks } from './types.js';

export class PostgresLocks implements Locks {
  readonly kind = 'postgres' as const;
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** One statement: insert the lease, or take over the row only if its lease has expired. */
  async acquire(name: string, ttlMs: number): Promise<Lease | null> {
    const owner = randomUUID();
    const expiresAt = expiryIn(ttlMs);
    const rows = await this.#db
      .insert(leases)
      .values({ name, owner, fencingToken: 1, expiresAt })
      .onConflictDoUpdate({
        target: leases.name,
        set: { owner, fencingToken: sql`${leases.fencingToken} + 1`, expiresAt },
        where: sql`${leases.expiresAt} <= now()`,
      })
      .returning({ fencingToken: leases.fencingToken });
    const row = rows[0];
    return row ? { name, owner, fencingToken: Number(row.fencingToken) } : null;
  }

  async refresh(lease: Lease, ttlMs: number): Promise<boolean> {
    const rows = await this.#db
      .update(leases)
      .set({ expiresAt: expiryIn(ttlMs) })
      .where(heldBy(lease))
      .returning({ name: leases.name });
    return rows.length === 1;
  }

  async release(lease: Lease): Promise<boolean> {
    const rows = await this.#db
      .update(leases)
      .set({ expiresAt: sql`'-infinity'::timestamptz` })
      .where(heldBy(lease))
      .returning({ name: leases.name });
    return rows.length === 1;
  }
}

/** `now() + ttl` on the database clock. */
function expiryIn(ttlMs: number) {
  return sql`now() + ${ttlMilliseconds(ttlMs)}::bigint * interval '1 millisecond'`;
}

/** The row still belongs to this exact acquisition and its lease has not run out. */
function heldBy(lease: Lease) {
  return and(
    eq(leases.name, lease.name),
    eq(leases.owner, lease.owner),
    eq(leases.fencingToken, lease.fencingToken),
    gt(leases.expiresAt, sql`now()`),
  );
}
