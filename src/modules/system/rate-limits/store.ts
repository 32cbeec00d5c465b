/**
 * The parked providers' rows (provider_rate_limits). Every change is one atomic statement, so
 * replicas reporting hits and the one replica probing never undo each other's work: a second hit
 * merges into the episode, and a lift or a failed probe only touches a row that is due.
 */
import { and, asc, eq, getTableColumns, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/client.js';
import type { RateLimitHit, ThrottleKind } from '../events.js';
import { providerRateLimits } from '../schema.js';

export type RateLimitRow = typeof providerRateLimits.$inferSelect;

export interface HitRecord {
  provider: string;
  kind: ThrottleKind;
  at: Date;
  resumeAt: Date;
  retryAfterSeconds: number | null;
  agents: string[];
}

const t = providerRateLimits;

export function entryOf(row: RateLimitRow): RateLimitHit {
  return {
    provider: row.provider,
    kind: row.kind as ThrottleKind,
    affected_agents: [...row.affectedAgents],
    hit_at: row.hitAt.toISOString(),
    resume_at: row.resumeAt.toISOString(),
    retry_after_seconds: row.retryAfterSeconds,
    probe_failures: row.probeFailures,
  };
}

export class RateLimitStore {
  constructor(private readonly db: Db) {}

  /**
   * Parks the provider, or merges into its episode: probe failures and the first hit's time kept,
   * the window extended (never shortened), the agents united. `opened` is true for a new episode.
   */
  async park(hit: HitRecord): Promise<{ row: RateLimitRow; opened: boolean }> {
    const [result] = await this.db
      .insert(t)
      .values({
        provider: hit.provider,
        kind: hit.kind,
        hitAt: hit.at,
        resumeAt: hit.resumeAt,
        retryAfterSeconds: hit.retryAfterSeconds,
        affectedAgents: [...new Set(hit.agents)].sort(),
      })
      .onConflictDoUpdate({
        target: t.provider,
        set: {
          retryAfterSeconds: sql`case when excluded.resume_at > ${t.resumeAt} then excluded.retry_after_seconds else ${t.retryAfterSeconds} end`,
          resumeAt: sql`greatest(${t.resumeAt}, excluded.resume_at)`,
          affectedAgents: sql`array(select distinct a from unnest(${t.affectedAgents} || excluded.affected_agents) as a order by a)`,
        },
      })
      .returning({ ...getTableColumns(t), opened: sql<boolean>`(xmax = 0)`.mapWith(Boolean) });
    const { opened, ...row } = result!;
    return { row, opened };
  }

  /** Every parked provider, soonest resume first. */
  list(): Promise<RateLimitRow[]> {
    return this.db.select().from(t).orderBy(asc(t.resumeAt), asc(t.provider));
  }

  /** The providers whose window (or back-off) has ended at `now`. */
  due(now: Date): Promise<RateLimitRow[]> {
    return this.db.select().from(t).where(lte(t.resumeAt, now)).orderBy(asc(t.resumeAt), asc(t.provider));
  }

  /** Lifts a due provider; null when it is gone or a later hit extended its window meanwhile. */
  async lift(provider: string, now: Date): Promise<RateLimitRow | null> {
    const [row] = await this.db
      .delete(t)
      .where(and(eq(t.provider, provider), lte(t.resumeAt, now)))
      .returning();
    return row ?? null;
  }

  /** A failed probe of a due provider: one more failure, tried again at `nextAt`. */
  async probeFailed(provider: string, now: Date, nextAt: Date): Promise<RateLimitRow | null> {
    const [row] = await this.db
      .update(t)
      .set({ probeFailures: sql`${t.probeFailures} + 1`, resumeAt: nextAt })
      .where(and(eq(t.provider, provider), lte(t.resumeAt, now)))
      .returning();
    return row ?? null;
  }

  /** Claims the episode's one CEO notification; true for the caller that claimed it. */
  async claimCeoNotice(provider: string): Promise<boolean> {
    const rows = await this.db
      .update(t)
      .set({ ceoNotified: true })
      .where(and(eq(t.provider, provider), eq(t.ceoNotified, false)))
      .returning({ provider: t.provider });
    return rows.length > 0;
  }
}
