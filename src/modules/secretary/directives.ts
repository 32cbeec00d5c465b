/**
 * The directive queue: the secretary files a directive (a gated one `pending`, a relayed message
 * carried out at once), the CEO confirms (carried out with the CEO's authority → `executed`, or
 * `failed` with the error) or rejects it. Deciding one that is no longer pending is a 409.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { Identity } from '../../platform/http/auth/index.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { messageOf } from '../../platform/message-of.js';
import {
  type DirectiveExecutorDeps,
  type DirectiveKind,
  type DirectiveStatus,
  executeDirective,
} from './directive-kinds.js';
import { secretaryDirectives } from './schema.js';

type Row = typeof secretaryDirectives.$inferSelect;

export interface DirectiveView {
  id: string;
  kind: DirectiveKind;
  payload: Record<string, unknown>;
  rationale: string;
  session_id: string | null;
  status: DirectiveStatus;
  result: Record<string, unknown> | null;
  error: string | null;
  reject_reason: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

export const directiveView = (row: Row): DirectiveView => ({
  id: row.id,
  kind: row.kind as DirectiveKind,
  payload: row.payload,
  rationale: row.rationale,
  session_id: row.sessionId,
  status: row.status as DirectiveStatus,
  result: row.result ?? null,
  error: row.error,
  reject_reason: row.rejectReason,
  created_at: row.createdAt.toISOString(),
  decided_at: row.decidedAt?.toISOString() ?? null,
  decided_by: row.decidedBy,
});

export class DirectivesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly deps: DirectiveExecutorDeps,
  ) {}

  /** Files a gated directive, pending the CEO's decision. */
  async propose(
    kind: DirectiveKind,
    payload: Record<string, unknown>,
    rationale: string,
    sessionId: string | null,
  ): Promise<DirectiveView> {
    const [row] = await this.db
      .insert(secretaryDirectives)
      .values({ id: randomUUID(), kind, payload, rationale, sessionId, createdAt: this.clock.now() })
      .returning();
    return directiveView(row!);
  }

  /** Carries out a relayed message now and records it executed (or failed). */
  async relayNow(
    payload: Record<string, unknown>,
    sessionId: string | null,
    as: Identity,
  ): Promise<DirectiveView> {
    const now = this.clock.now();
    let result: Record<string, unknown> | null = null;
    let error: string | null = null;
    try {
      result = await executeDirective(this.deps, 'relay_message', payload, as);
    } catch (cause) {
      error = messageOf(cause);
    }
    const [row] = await this.db
      .insert(secretaryDirectives)
      .values({
        id: randomUUID(),
        kind: 'relay_message',
        payload,
        rationale: String(payload.rationale ?? ''),
        sessionId,
        status: error ? 'failed' : 'executed',
        result,
        error,
        createdAt: now,
        decidedAt: now,
        decidedBy: as.id,
      })
      .returning();
    return directiveView(row!);
  }

  async list(status?: DirectiveStatus): Promise<DirectiveView[]> {
    const rows = await this.db
      .select()
      .from(secretaryDirectives)
      .where(status ? eq(secretaryDirectives.status, status) : undefined)
      .orderBy(desc(secretaryDirectives.createdAt))
      .limit(200);
    return rows.map(directiveView);
  }

  async get(id: string): Promise<DirectiveView> {
    const [row] = await this.db.select().from(secretaryDirectives).where(eq(secretaryDirectives.id, id));
    if (!row) throw notFound(`no directive ${id}`);
    return directiveView(row);
  }

  /** Carries the directive out as the CEO: `executed` with what it did, or `failed` with the error. */
  async confirm(id: string, ceo: Identity): Promise<DirectiveView> {
    const claimed = await this.decide(id, { status: 'executed', decidedBy: ceo.id });
    try {
      const result = await executeDirective(this.deps, claimed.kind as DirectiveKind, claimed.payload, ceo);
      return this.finish(id, { result });
    } catch (cause) {
      return this.finish(id, { status: 'failed', error: messageOf(cause) });
    }
  }

  async reject(id: string, reason: string, ceo: Identity): Promise<DirectiveView> {
    return directiveView(
      await this.decide(id, { status: 'rejected', decidedBy: ceo.id, rejectReason: reason }),
    );
  }

  /** Moves a pending directive on, atomically; 404 unknown, 409 `directive_not_pending`. */
  private async decide(id: string, set: Partial<typeof secretaryDirectives.$inferInsert>): Promise<Row> {
    const [row] = await this.db
      .update(secretaryDirectives)
      .set({ ...set, decidedAt: this.clock.now() })
      .where(and(eq(secretaryDirectives.id, id), eq(secretaryDirectives.status, 'pending')))
      .returning();
    if (row) return row;
    const existing = await this.get(id);
    throw conflict('directive_not_pending', `directive ${id} is already ${existing.status}`, {
      status: existing.status,
    });
  }

  private async finish(
    id: string,
    set: Partial<typeof secretaryDirectives.$inferInsert>,
  ): Promise<DirectiveView> {
    const [row] = await this.db
      .update(secretaryDirectives)
      .set(set)
      .where(eq(secretaryDirectives.id, id))
      .returning();
    return directiveView(row!);
  }
}
