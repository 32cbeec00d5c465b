/**
 * The secretary's directives: high-impact actions it proposed in a live chat (change the charter,
 * control a task, announce, approve a pitch), held `pending` until the CEO confirms (then
 * `executed` or `failed` with the error) or rejects them; a relayed message is recorded as already
 * executed.
 */
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const secretaryDirectives = pgTable(
  'secretary_directives',
  {
    id: text('id').primaryKey(),
    /** update_charter, control_task, announce, approve_pitch, relay_message. */
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    rationale: text('rationale').notNull().default(''),
    /** The live chat session it came from (none for one filed directly). */
    sessionId: text('session_id'),
    /** pending, executed, rejected, failed. */
    status: text('status').notNull().default('pending'),
    result: jsonb('result').$type<Record<string, unknown> | null>(),
    error: text('error'),
    rejectReason: text('reject_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
  },
  (t) => [index('secretary_directives_status_idx').on(t.status, t.createdAt)],
);
