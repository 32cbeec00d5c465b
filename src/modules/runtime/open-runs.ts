/**
 * Named reads of the open agent runs (on any replica) for other modules: which agents run now and
 * through which agent CLI, and which agents' runs are still vouched for.
 */
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { agentRuns } from './schema.js';
import { LOST_RUN_AFTER_MS } from './supervisor.js';

/** Every open run: the agent and its agent CLI. */
export function openRuns(db: Db): Promise<{ agentId: string; provider: string }[]> {
  return db
    .select({ agentId: agentRuns.agentId, provider: agentRuns.provider })
    .from(agentRuns)
    .where(isNull(agentRuns.endedAt));
}

/** The agent CLI of the agent's newest open run; null when it runs nowhere. */
export async function openRunProvider(db: Db, agentId: string): Promise<string | null> {
  const [run] = await db
    .select({ provider: agentRuns.provider })
    .from(agentRuns)
    .where(and(eq(agentRuns.agentId, agentId), isNull(agentRuns.endedAt)))
    .orderBy(desc(agentRuns.startedAt))
    .limit(1);
  return run?.provider ?? null;
}

/** An open run some replica vouched for within LOST_RUN_AFTER_MS of `now`. */
const vouchedFor = (now: Date) =>
  and(
    isNull(agentRuns.endedAt),
    gt(
      sql`coalesce(${agentRuns.seenAt}, ${agentRuns.startedAt})`,
      new Date(now.getTime() - LOST_RUN_AFTER_MS),
    ),
  );

/** Whether an open run of the agent was vouched for (by any replica) within LOST_RUN_AFTER_MS of `now`. */
export async function hasLiveRun(db: Db, agentId: string, now: Date): Promise<boolean> {
  const rows = await db
    .select({ id: agentRuns.id })
    .from(agentRuns)
    .where(and(eq(agentRuns.agentId, agentId), vouchedFor(now)))
    .limit(1);
  return rows.length > 0;
}

/** The agents with an open run some replica vouches for: each runs one run at a time, cluster-wide. */
export async function liveRunAgents(db: Db, now: Date): Promise<Set<string>> {
  const rows = await db.selectDistinct({ agentId: agentRuns.agentId }).from(agentRuns).where(vouchedFor(now));
  return new Set(rows.map((row) => row.agentId));
}
