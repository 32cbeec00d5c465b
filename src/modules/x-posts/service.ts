/**
 * X posts: the head of marketing drafts release and feature posts; each is held for the CEO, who
 * approves it (optionally edited, ≤ 280 characters) — it is then posted through the X API — or
 * rejects it with a reason, after which a revision (a new draft linked to the rejected one) is
 * expected. A failed post keeps the reason and may be approved again; a decided post is a 409.
 * Every draft carries its impact bar score.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lt, or } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/http/errors.js';
import type { XCredentialsStore } from './credentials-store.js';
import { type ImpactScore, impactBar, lengthOf, X_MAX_CHARS } from './impact-bar.js';
import { xPosts } from './schema.js';
import { postTweet, XPostError } from './x-client.js';

export const POST_KINDS = ['release', 'feature'] as const;
export type PostKind = (typeof POST_KINDS)[number];
export const POST_STATUSES = ['held', 'approved', 'posted', 'rejected', 'failed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export interface DraftInput {
  kind: PostKind;
  body: string;
  task_id?: string;
  release_ref?: string;
  revision_of?: string;
}

export interface XPostView {
  id: string;
  kind: PostKind;
  status: PostStatus;
  body: string;
  approved_body: string | null;
  length: number;
  impact: ImpactScore;
  task_id: string | null;
  release_ref: string | null;
  revision_of: string | null;
  /** The draft that revises this one (a rejected post), once written. */
  revised_by: string | null;
  drafted_by: string;
  decided_by: string | null;
  decided_at: string | null;
  reject_reason: string | null;
  failure_reason: string | null;
  tweet_id: string | null;
  posted_at: string | null;
  created_at: string;
}

type Row = typeof xPosts.$inferSelect;

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

function view(row: Row, revisedBy: string | null): XPostView {
  return {
    id: row.id,
    kind: row.kind as PostKind,
    status: row.status as PostStatus,
    body: row.body,
    approved_body: row.approvedBody,
    length: lengthOf(row.body),
    impact: impactBar(row.body),
    task_id: row.taskId,
    release_ref: row.releaseRef,
    revision_of: row.revisionOf,
    revised_by: revisedBy,
    drafted_by: row.draftedBy,
    decided_by: row.decidedBy,
    decided_at: iso(row.decidedAt),
    reject_reason: row.rejectReason,
    failure_reason: row.failureReason,
    tweet_id: row.tweetId,
    posted_at: iso(row.postedAt),
    created_at: row.createdAt.toISOString(),
  };
}

/** 422 when `body` is empty or longer than X allows. */
function checkedBody(raw: string, field: string): string {
  const body = raw.trim();
  if (!body) throw unprocessable(`${field} is empty`, { field });
  const length = lengthOf(body);
  if (length > X_MAX_CHARS) {
    throw unprocessable(`${field} is ${length} characters; X allows ${X_MAX_CHARS}`, {
      field,
      length,
      max: X_MAX_CHARS,
    });
  }
  return body;
}

/** Tells someone about a post (the CEO of a new draft, the drafter of a rejection); never throws. */
export type PostNotifier = (recipient: string, subject: string, body: string) => Promise<void>;

export class XPostsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly credentials: XCredentialsStore,
    private readonly timeoutMs: number,
    private readonly notify: PostNotifier = async () => {},
  ) {}

  private async views(rows: Row[]): Promise<XPostView[]> {
    const ids = rows.map((row) => row.id);
    const revisions = ids.length
      ? await this.db
          .select({ id: xPosts.id, of: xPosts.revisionOf })
          .from(xPosts)
          .where(inArray(xPosts.revisionOf, ids))
      : [];
    const revisedBy = new Map(revisions.map((r) => [r.of, r.id]));
    return rows.map((row) => view(row, revisedBy.get(row.id) ?? null));
  }

  private async row(id: string): Promise<Row> {
    const [row] = await this.db.select().from(xPosts).where(eq(xPosts.id, id));
    if (!row) throw notFound(`there is no X post ${id}`);
    return row;
  }

  async get(id: string): Promise<XPostView> {
    const [one] = await this.views([await this.row(id)]);
    return one!;
  }

  async list(status: PostStatus | undefined, limit: number): Promise<XPostView[]> {
    const rows = await this.db
      .select()
      .from(xPosts)
      .where(status ? eq(xPosts.status, status) : undefined)
      .orderBy(desc(xPosts.createdAt), desc(xPosts.id))
      .limit(limit);
    return this.views(rows);
  }

  async draft(input: DraftInput, by: string): Promise<XPostView> {
    const body = checkedBody(input.body, 'body');
    if (input.revision_of) {
      const previous = await this.db.select().from(xPosts).where(eq(xPosts.id, input.revision_of));
      if (previous[0]?.status !== 'rejected') {
        throw unprocessable('revision_of must name a rejected post', { field: 'revision_of' });
      }
    }
    const [row] = await this.db
      .insert(xPosts)
      .values({
        id: randomUUID(),
        kind: input.kind,
        body,
        status: 'held',
        taskId: input.task_id ?? null,
        releaseRef: input.release_ref ?? null,
        revisionOf: input.revision_of ?? null,
        draftedBy: by,
        createdAt: this.clock.now(),
      })
      .returning();
    const drafted = view(row!, null);
    await this.notify(
      'ceo',
      `[x] ${drafted.kind} post ${input.revision_of ? 'revised' : 'drafted'} — impact ${drafted.impact.score}/100`,
      `${drafted.body}\n\nApprove or reject it in the X post queue (panel: Social; /api/x/posts/${drafted.id}).`,
    );
    return drafted;
  }

  /**
   * Decides a held or failed post (one caller wins: a conditional update); 409 when it is decided
   * already or being posted. A post left `approved` by a process that died mid-post counts as failed
   * once its post attempt has surely timed out (four timeouts after the approval).
   */
  private async claim(id: string, set: Partial<typeof xPosts.$inferInsert>): Promise<Row> {
    const abandoned = new Date(this.clock.now().getTime() - 4 * this.timeoutMs);
    const [row] = await this.db
      .update(xPosts)
      .set(set)
      .where(
        and(
          eq(xPosts.id, id),
          or(
            inArray(xPosts.status, ['held', 'failed']),
            and(eq(xPosts.status, 'approved'), lt(xPosts.decidedAt, abandoned)),
          ),
        ),
      )
      .returning();
    if (row) return row;
    const current = await this.row(id);
    throw conflict(
      'x_post_decided',
      `the X post ${id} is ${current.status}; only a held or failed post can be decided`,
      {
        status: current.status,
      },
    );
  }

  /** Approves and posts. A failed post answers with status `failed` and its reason (approve again to retry). */
  async approve(id: string, editedBody: string | undefined, by: string): Promise<XPostView> {
    const current = await this.row(id);
    const text = checkedBody(editedBody ?? current.approvedBody ?? current.body, 'body');
    const credentials = await this.credentials.read();
    if (!credentials) {
      throw new AppError(
        409,
        'x_not_configured',
        'no X credentials are set, so nothing can be posted',
        undefined,
        'The CEO sets the X user bearer token with PUT /api/x/credentials, then approves again.',
      );
    }
    await this.claim(id, {
      status: 'approved',
      approvedBody: text,
      decidedBy: by,
      decidedAt: this.clock.now(),
      failureReason: null,
    });
    let update: Partial<typeof xPosts.$inferInsert>;
    try {
      const posted = await postTweet({ ...credentials, timeoutMs: this.timeoutMs }, text);
      update = { status: 'posted', tweetId: posted.id, postedAt: this.clock.now() };
    } catch (error) {
      if (!(error instanceof XPostError)) throw error;
      update = { status: 'failed', failureReason: error.message };
    }
    await this.db.update(xPosts).set(update).where(eq(xPosts.id, id));
    return this.get(id);
  }

  async reject(id: string, reason: string, by: string): Promise<XPostView> {
    const why = reason.trim();
    if (!why) throw unprocessable('a rejection needs a reason', { field: 'reason' });
    const row = await this.claim(id, {
      status: 'rejected',
      rejectReason: why,
      decidedBy: by,
      decidedAt: this.clock.now(),
    });
    await this.notify(
      row.draftedBy,
      `[x] your ${row.kind} post was rejected — revise it`,
      `The CEO's reason: ${why}\n\nDraft a revision with revision_of ${row.id} (POST /api/x/posts).\n\nThe rejected draft:\n${row.body}`,
    );
    return this.get(id);
  }
}
