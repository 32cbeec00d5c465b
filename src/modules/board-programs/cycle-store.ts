/**
 * The board_program_cycles table: open a cycle, close it with its counts and outcome, close the
 * ones a stopped process left running, and read the history newest first.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { CycleCounts } from './cycle-recorder.js';
import { boardProgramCycles, type CycleOutcome, type CycleTrigger } from './schema.js';

export type CycleRow = typeof boardProgramCycles.$inferSelect;

/** The detail of a cycle closed because the process running it stopped before closing it. */
export const ABANDONED_DETAIL = 'abandoned: the process running this cycle stopped before closing it';

export async function openCycle(
  db: Db,
  input: { programKey: string; trigger: CycleTrigger; openedAt: Date },
): Promise<CycleRow> {
  const [row] = await db
    .insert(boardProgramCycles)
    .values({ programKey: input.programKey, trigger: input.trigger, openedAt: input.openedAt })
    .returning();
  if (!row) throw new Error('the cycle row was not created');
  return row;
}

export async function closeCycle(
  db: Db,
  id: string,
  input: {
    closedAt: Date;
    outcome: Exclude<CycleOutcome, 'running'>;
    detail: string | null;
    counts: CycleCounts;
  },
): Promise<void> {
  await db
    .update(boardProgramCycles)
    .set({
      closedAt: input.closedAt,
      outcome: input.outcome,
      outcomeDetail: input.detail,
      ...input.counts,
    })
    .where(eq(boardProgramCycles.id, id));
}

/**
 * Closes the program's cycles still marked running. Called by a pass that holds the program's
 * lease, so no live pass can own them: their process stopped (crashed, killed) mid-cycle.
 */
export async function closeAbandonedCycles(db: Db, programKey: string, closedAt: Date): Promise<number> {
  const closed = await db
    .update(boardProgramCycles)
    .set({
      closedAt,
      outcome: 'failed',
      outcomeDetail: ABANDONED_DETAIL,
      errors: sql`${boardProgramCycles.errors} + 1`,
      errorMessages: sql`${boardProgramCycles.errorMessages} || ${JSON.stringify([ABANDONED_DETAIL])}::jsonb`,
    })
    .where(and(eq(boardProgramCycles.programKey, programKey), eq(boardProgramCycles.outcome, 'running')))
    .returning({ id: boardProgramCycles.id });
  return closed.length;
}

export async function readCycle(db: Db, id: string): Promise<CycleRow | undefined> {
  const [row] = await db.select().from(boardProgramCycles).where(eq(boardProgramCycles.id, id));
  return row;
}

/** The program's cycles, newest opened first. */
export async function listCycles(db: Db, programKey: string, limit: number): Promise<CycleRow[]> {
  return db
    .select()
    .from(boardProgramCycles)
    .where(eq(boardProgramCycles.programKey, programKey))
    .orderBy(desc(boardProgramCycles.openedAt), desc(boardProgramCycles.seq))
    .limit(limit);
}

/** The newest cycle of each of `programKeys` that has one. */
export async function lastCycles(db: Db, programKeys: readonly string[]): Promise<Map<string, CycleRow>> {
  if (programKeys.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([boardProgramCycles.programKey])
    .from(boardProgramCycles)
    .where(inArray(boardProgramCycles.programKey, [...programKeys]))
    .orderBy(boardProgramCycles.programKey, desc(boardProgramCycles.openedAt), desc(boardProgramCycles.seq));
  return new Map(rows.map((row) => [row.programKey, row]));
}
