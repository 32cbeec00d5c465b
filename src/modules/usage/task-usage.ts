/** A named read of the usage ledger for the evidence read model: each task's tokens and cost in total. */
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { usageRecords } from './schema.js';

export interface TaskUsage {
  taskId: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Ledger rows summed. */
  rows: number;
}

/** The ledger's totals of each task of `ids` that has any. */
export async function usageOfTasks(db: Db, ids: readonly string[]): Promise<TaskUsage[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      taskId: usageRecords.taskId,
      inputTokens: sql<number>`coalesce(sum(${usageRecords.inputTokens}), 0)::float8`,
      outputTokens: sql<number>`coalesce(sum(${usageRecords.outputTokens}), 0)::float8`,
      costUsd: sql<number>`coalesce(sum(${usageRecords.costUsd}), 0)::float8`,
      rows: sql<number>`count(*)::int`,
    })
    .from(usageRecords)
    .where(inArray(usageRecords.taskId, [...ids]))
    .groupBy(usageRecords.taskId);
}
