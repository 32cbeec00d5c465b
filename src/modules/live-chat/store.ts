/** The persisted half of a live chat: session rows and their ordered turns. */
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, lt, max, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { liveChatSessions, liveChatTurns } from './schema.js';

export type SessionRow = typeof liveChatSessions.$inferSelect;

export interface Turn {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
  at: string;
}

export class LiveChatStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly kind: string,
  ) {}

  async create(ownerId: string, scope: Record<string, unknown>): Promise<SessionRow> {
    const now = this.clock.now();
    const [row] = await this.db
      .insert(liveChatSessions)
      .values({
        id: randomBytes(16).toString('hex'),
        kind: this.kind,
        ownerId,
        scope,
        createdAt: now,
        lastActivityAt: now,
      })
      .returning();
    return row!;
  }

  /** The session of this kind, or null (unknown id, or one of the other chat). */
  async find(id: string): Promise<SessionRow | null> {
    const [row] = await this.db
      .select()
      .from(liveChatSessions)
      .where(and(eq(liveChatSessions.id, id), eq(liveChatSessions.kind, this.kind)));
    return row ?? null;
  }

  /** The owner's most recently active live session of this kind, or null. */
  async latestActive(ownerId: string): Promise<SessionRow | null> {
    const [row] = await this.db
      .select()
      .from(liveChatSessions)
      .where(
        and(
          eq(liveChatSessions.kind, this.kind),
          eq(liveChatSessions.ownerId, ownerId),
          eq(liveChatSessions.status, 'active'),
        ),
      )
      .orderBy(desc(liveChatSessions.lastActivityAt))
      .limit(1);
    return row ?? null;
  }

  async turns(sessionId: string): Promise<Turn[]> {
    const rows = await this.db
      .select()
      .from(liveChatTurns)
      .where(eq(liveChatTurns.sessionId, sessionId))
      .orderBy(asc(liveChatTurns.seq));
    return rows.map((r) => ({ seq: r.seq, kind: r.kind, data: r.data, at: r.at.toISOString() }));
  }

  async countTurns(sessionId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(liveChatTurns)
      .where(eq(liveChatTurns.sessionId, sessionId));
    return row?.n ?? 0;
  }

  /** Appends a turn (the next seq) and marks the session active now. */
  async append(sessionId: string, kind: string, data: Record<string, unknown>): Promise<Turn> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await tx
        .update(liveChatSessions)
        .set({ lastActivityAt: now })
        .where(eq(liveChatSessions.id, sessionId));
      const [last] = await tx
        .select({ seq: max(liveChatTurns.seq) })
        .from(liveChatTurns)
        .where(eq(liveChatTurns.sessionId, sessionId));
      const seq = (last?.seq ?? 0) + 1;
      await tx.insert(liveChatTurns).values({ sessionId, seq, kind, data, at: now });
      return { seq, kind, data, at: now.toISOString() };
    });
  }

  async setDraft(sessionId: string, draft: Record<string, unknown> | null): Promise<void> {
    await this.db.update(liveChatSessions).set({ draft }).where(eq(liveChatSessions.id, sessionId));
  }

  /** Ends an active session; false when it had already ended. */
  async end(sessionId: string, reason: string): Promise<boolean> {
    const rows = await this.db
      .update(liveChatSessions)
      .set({ status: 'ended', endedAt: this.clock.now(), endedReason: reason })
      .where(and(eq(liveChatSessions.id, sessionId), eq(liveChatSessions.status, 'active')))
      .returning({ id: liveChatSessions.id });
    return rows.length > 0;
  }

  /** Ends the active sessions of this kind without a turn since `before`; their ids. */
  async endIdle(before: Date): Promise<string[]> {
    const rows = await this.db
      .update(liveChatSessions)
      .set({ status: 'ended', endedAt: this.clock.now(), endedReason: 'idle' })
      .where(
        and(
          eq(liveChatSessions.kind, this.kind),
          eq(liveChatSessions.status, 'active'),
          lt(liveChatSessions.lastActivityAt, before),
        ),
      )
      .returning({ id: liveChatSessions.id });
    return rows.map((r) => r.id);
  }
}
