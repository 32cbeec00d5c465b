/**
 * The local forge's pull-request records (table `pull_requests`): open with the next number of
 * the project (or answer the one already open for the same head and base), read, list, and the
 * one-way open → merged step.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { pullRequests } from './schema.js';
import type { MergeMethod, OpenPullRequestInput, PullRequest, PullRequestState } from './types.js';

type Row = typeof pullRequests.$inferSelect;

export class LocalPullRequests {
  constructor(
    private readonly db: Db,
    private readonly projectId: string,
    private readonly clock: Clock,
    private readonly urlOf: (number: number) => string,
  ) {}

  /** Records a new open pull request, or answers the open one with the same head and base. */
  async open(input: OpenPullRequestInput): Promise<PullRequest> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const existing = await this.findOpen(input.head, input.base);
      if (existing) return existing;
      const now = this.clock.now();
      try {
        const [row] = await this.db
          .insert(pullRequests)
          .values({
            projectId: this.projectId,
            number: sql`(select coalesce(max(${pullRequests.number}), 0) + 1 from ${pullRequests} where ${pullRequests.projectId} = ${this.projectId})`,
            head: input.head,
            base: input.base,
            title: input.title,
            body: input.body,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        return this.view(row!);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // another writer took the number or opened the same head → base: look again
      }
    }
    throw new Error('could not allocate a pull request number');
  }

  async get(number: number): Promise<PullRequest | null> {
    const [row] = await this.db
      .select()
      .from(pullRequests)
      .where(and(eq(pullRequests.projectId, this.projectId), eq(pullRequests.number, number)));
    return row ? this.view(row) : null;
  }

  async listOpen(head: string): Promise<PullRequest[]> {
    const rows = await this.db
      .select()
      .from(pullRequests)
      .where(
        and(
          eq(pullRequests.projectId, this.projectId),
          eq(pullRequests.head, head),
          eq(pullRequests.state, 'open'),
        ),
      )
      .orderBy(asc(pullRequests.number));
    return rows.map((row) => this.view(row));
  }

  /** open → merged; answers the row as it now stands (already merged by someone else included). */
  async markMerged(number: number, method: MergeMethod, sha: string): Promise<PullRequest> {
    const now = this.clock.now();
    await this.db
      .update(pullRequests)
      .set({ state: 'merged', mergeMethod: method, mergeSha: sha, mergedAt: now, updatedAt: now })
      .where(
        and(
          eq(pullRequests.projectId, this.projectId),
          eq(pullRequests.number, number),
          eq(pullRequests.state, 'open'),
        ),
      );
    const merged = await this.get(number);
    if (!merged) throw new Error(`pull request #${number} vanished`);
    return merged;
  }

  private async findOpen(head: string, base: string): Promise<PullRequest | null> {
    const [row] = await this.db
      .select()
      .from(pullRequests)
      .where(
        and(
          eq(pullRequests.projectId, this.projectId),
          eq(pullRequests.head, head),
          eq(pullRequests.base, base),
          eq(pullRequests.state, 'open'),
        ),
      );
    return row ? this.view(row) : null;
  }

  private view(row: Row): PullRequest {
    return {
      number: row.number,
      url: this.urlOf(row.number),
      state: row.state as PullRequestState,
      head: row.head,
      base: row.base,
      title: row.title,
      body: row.body,
      mergeSha: row.mergeSha,
    };
  }
}
