/**
 * The shared run record of each loop (table `scheduler_loops`). Every time is the database clock's
 * (`now()`), so replicas whose clocks disagree still agree on whose turn it is.
 */
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { schedulerLoops } from './schema.js';

/**
 * Claims this interval's tick of a loop: true for exactly one replica per interval. Time is cut
 * into slots one interval long (on the database clock); a tick is taken when the last start lies
 * in an earlier slot, so replicas whose timers run out of phase still run the loop once per slot.
 * The start time is written in the same statement that checks it.
 */
export async function claimTick(db: Db, name: string, intervalMs: number): Promise<boolean> {
  const slot = (at: ReturnType<typeof sql>) => sql`floor(extract(epoch from ${at}) * 1000 / ${intervalMs})`;
  const rows = await db
    .insert(schedulerLoops)
    .values({ name, lastStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: schedulerLoops.name,
      set: { lastStartedAt: sql`now()` },
      where: sql`${schedulerLoops.lastStartedAt} is null
        or ${slot(sql`${schedulerLoops.lastStartedAt}`)} < ${slot(sql`now()`)}`,
    })
    .returning({ name: schedulerLoops.name });
  return rows.length === 1;
}

/** Records a start outside the interval (run-now): always taken. */
export async function markStarted(db: Db, name: string): Promise<void> {
  await db
    .insert(schedulerLoops)
    .values({ name, lastStartedAt: sql`now()` })
    .onConflictDoUpdate({ target: schedulerLoops.name, set: { lastStartedAt: sql`now()` } });
}

export async function recordSuccess(db: Db, name: string): Promise<void> {
  await db
    .update(schedulerLoops)
    .set({ lastSuccessAt: sql`now()`, passes: sql`${schedulerLoops.passes} + 1` })
    .where(sql`${schedulerLoops.name} = ${name}`);
}

export async function recordFailure(db: Db, name: string, error: string): Promise<void> {
  await db
    .update(schedulerLoops)
    .set({
      lastFailureAt: sql`now()`,
      lastError: error.slice(0, 2000),
      passes: sql`${schedulerLoops.passes} + 1`,
      failures: sql`${schedulerLoops.failures} + 1`,
    })
    .where(sql`${schedulerLoops.name} = ${name}`);
}

export type RunRecord = typeof schedulerLoops.$inferSelect;

export async function readRunRecords(db: Db, names: readonly string[]): Promise<Map<string, RunRecord>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .select()
    .from(schedulerLoops)
    .where(inArray(schedulerLoops.name, [...names]));
  return new Map(rows.map((row) => [row.name, row]));
}
