/**
 * Pull requests of the `local` forge: recorded by Gaffer itself, since a plain git remote (a bare
 * repository on disk, any ssh or https remote without a forge API) has none. Numbers count up per
 * project; at most one pull request is open per (project, head, base).
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const pullRequests = pgTable(
  'pull_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The project (repository) the pull request belongs to. */
    projectId: uuid('project_id').notNull(),
    /** 1, 2, 3… per project. */
    number: integer('number').notNull(),
    head: text('head').notNull(),
    base: text('base').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    /** open | merged | closed */
    state: text('state').notNull().default('open'),
    /** squash | merge, once merged. */
    mergeMethod: text('merge_method'),
    /** The commit the merge left on the base. */
    mergeSha: text('merge_sha'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    mergedAt: timestamp('merged_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('pull_requests_project_number').on(t.projectId, t.number),
    uniqueIndex('pull_requests_one_open_per_head_base')
      .on(t.projectId, t.head, t.base)
      .where(sql`${t.state} = 'open'`),
    index('pull_requests_project_head').on(t.projectId, t.head),
  ],
);
