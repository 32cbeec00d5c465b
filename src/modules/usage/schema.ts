/**
 * The usage ledger: one row per metered piece of agent work — who (agent), on what (task,
 * project), through which provider and model, how many tokens and what it cost. The runtime
 * records it as agents report usage; the budget sweep sums it per task and per project-month, the
 * /api/usage routes per period and per agent, team, model and role.
 */
import { index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema.js';
import { projects } from '../projects/schema.js';
import { tasks } from '../tasks/schema.js';

export const usageRecords = pgTable(
  'usage_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Kept when the agent, task or project goes: spending history outlives what it was spent on. */
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    /** The agent CLI or model provider (`claude`, `codex`, …). */
    provider: text('provider').notNull(),
    model: text('model'),
    /** The agent's role and team when the usage happened (history stays true when agents change). */
    agentRole: text('agent_role'),
    agentTeam: text('agent_team'),
    /** How it reached the ledger: `adapter` (a model call of Gaffer's own), `process` (an agent CLI's usage line), `reported` (the agent's report_usage). */
    source: text('source').notNull().default('process'),
    /** Prompt tokens at the full input price (neither read from nor written to a prompt cache). */
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    cacheReadTokens: integer('cache_read_tokens').notNull().default(0),
    cacheWriteTokens: integer('cache_write_tokens').notNull().default(0),
    costUsd: numeric('cost_usd', { precision: 14, scale: 6, mode: 'number' }).notNull().default(0),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('usage_records_task_idx').on(t.taskId),
    index('usage_records_project_at_idx').on(t.projectId, t.at),
    index('usage_records_agent_at_idx').on(t.agentId, t.at),
    index('usage_records_at_idx').on(t.at),
  ],
);
