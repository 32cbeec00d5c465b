import { sql } from 'drizzle-orm';
import { boolean, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export interface LadderRung {
  name: string;
  branch: string;
}

/** A repository Gaffer's agents work on, with its commands, engine opt-ins and budget. */
export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  gitUrl: text('git_url').notNull(),
  /** github | gitea | local; null = inferred from the git URL's host. */
  gitProvider: text('git_provider'),
  /** REST base URL of the forge (GitHub Enterprise, a Gitea host); null = the provider's default. */
  forgeApiUrl: text('forge_api_url'),
  defaultBranch: text('default_branch').notNull().default('main'),
  protectedBranches: text('protected_branches').array().notNull().default(sql`'{}'::text[]`),
  /** Ordered rungs, head (PR target) first, prod (release target) last; null = single branch. */
  environments: jsonb('environments').$type<LadderRung[] | null>(),
  assignedCell: text('assigned_cell'),
  testCommand: text('test_command'),
  lintCommand: text('lint_command'),
  typecheckCommand: text('typecheck_command'),
  buildCommand: text('build_command'),
  qualityCommand: text('quality_command'),
  ciWatchEnabled: boolean('ci_watch_enabled').notNull().default(false),
  ciWatchWorkflow: text('ci_watch_workflow').notNull().default('ci.yml'),
  depUpdateCommand: text('dep_update_command'),
  /** Comma-separated lockfile paths; null = inferred from the package manager. */
  depUpdatePaths: text('dep_update_paths'),
  /**
   * Hosts agents of this project may reach through the egress proxy besides their model (package
   * registries and the like), in the grammar of platform/process/network-allow.ts; trimmed, unique.
   */
  agentNetworkAllow: text('agent_network_allow').array().notNull().default(sql`'{}'::text[]`),
  monthlyBudgetUsd: numeric('monthly_budget_usd', { precision: 12, scale: 2, mode: 'number' }),
  /** AES-256-GCM ciphertext (key derived from the auth secret); never returned. */
  gitTokenCiphertext: text('git_token_ciphertext'),
  isActive: boolean('is_active').notNull().default(true),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
