/**
 * X posts: every draft the head of marketing writes (held for the CEO; approved ones are posted
 * through the X API) and the one set of X credentials, sealed with the secret box.
 */
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const xPosts = pgTable(
  'x_posts',
  {
    id: uuid('id').primaryKey(),
    /** `release` or `feature`. */
    kind: text('kind').notNull(),
    /** The draft as written. */
    body: text('body').notNull(),
    /** The text posted (or to post): the draft, or the CEO's edit of it. */
    approvedBody: text('approved_body'),
    /** held → approved → posted | failed (approve again to retry); held → rejected. */
    status: text('status').notNull(),
    taskId: text('task_id'),
    releaseRef: text('release_ref'),
    /** The rejected draft this one revises. */
    revisionOf: uuid('revision_of'),
    draftedBy: text('drafted_by').notNull(),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
    failureReason: text('failure_reason'),
    tweetId: text('tweet_id'),
    postedAt: timestamp('posted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('x_posts_status_idx').on(t.status, t.createdAt)],
);

/** At most one row (`id = 'x'`): the OAuth 2.0 user bearer token, sealed, and the API base URL. */
export const xCredentials = pgTable('x_credentials', {
  id: text('id').primaryKey(),
  bearerTokenSealed: text('bearer_token_sealed').notNull(),
  /** Null: https://api.x.com. */
  baseUrl: text('base_url'),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
