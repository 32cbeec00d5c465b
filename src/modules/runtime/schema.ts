/**
 * The runtime's tables: one row per agent run (who, which task, which runtime, how it ended) and
 * the run's transcript — what the agent printed, in order, bounded per run. Pruned after the
 * `transcript_retention_days` setting.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema.js';
import { tasks } from '../tasks/schema.js';

/**
 * One spawn of one agent. `ended_at` null: running — the server running it vouches for it every
 * half minute (`seen_at`); a run nobody vouched for in a while is closed as `lost`.
 */
export const agentRuns = pgTable(
  'agent_runs',
  {
    id: uuid('id').primaryKey(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    /** `process` or `scripted`. */
    runtime: text('runtime').notNull(),
    provider: text('provider').notNull(),
    model: text('model'),
    pid: integer('pid'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Last time the server running it said it still was (null on runs from before this column). */
    seenAt: timestamp('seen_at', { withTimezone: true }),
    /** `exited`, `failed`, `stopped`, `killed` or `lost` once ended. */
    outcome: text('outcome'),
    exitCode: integer('exit_code'),
    signal: text('signal'),
    detail: text('detail'),
    /** UTF-8 bytes of output kept in the transcript. */
    transcriptBytes: integer('transcript_bytes').notNull().default(0),
    /** Output bytes not kept because the run's transcript reached its cap. */
    droppedBytes: integer('dropped_bytes').notNull().default(0),
    truncated: boolean('truncated').notNull().default(false),
    /** Destinations the run's network fence refused: each distinct one once, with its reason and count. */
    blocked: jsonb('blocked')
      .$type<{ host: string; port: number; reason: string; count: number }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Every refusal of the run's network fence, distinct or not. */
    blockedTotal: integer('blocked_total').notNull().default(0),
    /** The run limit that stopped it (`processes`, `memory`, `wall_time`); null when none did. */
    limitHit: text('limit_hit').$type<'processes' | 'memory' | 'wall_time'>(),
  },
  (t) => [
    index('agent_runs_agent_started_idx').on(t.agentId, t.startedAt),
    index('agent_runs_ended_idx').on(t.endedAt),
  ],
);

/** The output of a run, chunk by chunk (`seq` from 1, in the order it was printed). */
export const agentTranscriptChunks = pgTable(
  'agent_transcript_chunks',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => agentRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    agentId: uuid('agent_id').notNull(),
    taskId: uuid('task_id'),
    /** `stdout`, `stderr`, or `system` for the runtime's own notes (truncation, how it ended). */
    stream: text('stream').notNull(),
    text: text('text').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);
