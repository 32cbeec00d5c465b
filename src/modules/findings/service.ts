/**
 * The findings ledger of review rounds on a task: the read model behind GET /api/tasks/{id}/findings
 * and the writes the review verbs call (raise, mark addressed, verify, waive). Append-only: a
 * finding's status, commit and note change, nothing else. Every write takes an optional `db` so a
 * verb can run it inside its own transaction.
 */

import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Platform } from '../../platform/context.js';
import { type Db, perDatabase } from '../../platform/db/client.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { taskExists } from '../tasks/index.js';
import {
  ADDRESSABLE_STATUSES,
  type AddressRef,
  addressRefProblems,
  canWaive,
  compareOrigins,
  FINDING_LIMITS,
  type FindingInput,
  type FindingOrigin,
  isFindingOrigin,
  LEDGER_CAP,
  normalizeFinding,
  parseFindingRef,
  raiseProblems,
  resolveFindingRef,
} from './rules.js';
import { taskFindings } from './schema.js';

export type Finding = typeof taskFindings.$inferSelect;

export interface OriginSummary {
  origin: string;
  open: number;
  addressed: number;
  verified: number;
  waived: number;
}

export interface FindingsLedger {
  taskId: string;
  /** Newest round first, then newest raised; within one raise, the order it was written in. */
  findings: Finding[];
  /** Status counts per origin over the whole ledger, not only the returned rows. */
  summary: OriginSummary[];
  total: number;
  truncated: boolean;
}

export interface AddressResult {
  addressed: Finding[];
  /** References that named no addressable finding of the task, and why. */
  skipped: { finding_id: string; reason: 'invalid' | 'not_found' | 'ambiguous' | 'closed' }[];
}

interface WriteOptions {
  /** Run inside the caller's transaction. */
  db?: Db;
}

/** A task's open findings, newest round first (the order of the ledger). */
const openFindingsStatement = perDatabase((db) =>
  db
    .select()
    .from(taskFindings)
    .where(and(eq(taskFindings.taskId, sql.placeholder('taskId')), eq(taskFindings.status, 'open')))
    .orderBy(desc(taskFindings.round), desc(taskFindings.createdAt), asc(taskFindings.seq))
    .limit(sql.placeholder('limit'))
    .prepare('findings_open'),
);

export class FindingsService {
  constructor(readonly platform: Platform) {}

  private get db(): Db {
    return this.platform.database.db;
  }

  /** 404 `not_found` when the task does not exist. */
  async ledger(taskId: string, options: { limit?: number } = {}): Promise<FindingsLedger> {
    await this.requireTask(this.db, taskId);
    const limit = options.limit ?? LEDGER_CAP;
    const summary = await this.db
      .select({
        origin: taskFindings.origin,
        open: sql<number>`(count(*) filter (where ${taskFindings.status} = 'open'))::int`,
        addressed: sql<number>`(count(*) filter (where ${taskFindings.status} = 'addressed'))::int`,
        verified: sql<number>`(count(*) filter (where ${taskFindings.status} = 'verified'))::int`,
        waived: sql<number>`(count(*) filter (where ${taskFindings.status} = 'waived'))::int`,
        total: sql<number>`count(*)::int`,
      })
      .from(taskFindings)
      .where(eq(taskFindings.taskId, taskId))
      .groupBy(taskFindings.origin);
    const findings = await this.db
      .select()
      .from(taskFindings)
      .where(eq(taskFindings.taskId, taskId))
      .orderBy(desc(taskFindings.round), desc(taskFindings.createdAt), asc(taskFindings.seq))
      .limit(limit);
    const total = summary.reduce((sum, row) => sum + row.total, 0);
    return {
      taskId,
      findings,
      summary: summary
        .map(({ total: _, ...counts }) => counts)
        .sort((a, b) => compareOrigins(a.origin, b.origin)),
      total,
      truncated: total > findings.length,
    };
  }

  /** Up to `limit` open findings of a task, in ledger order; none for a task that does not exist. */
  async open(taskId: string, limit: number): Promise<Finding[]> {
    return openFindingsStatement(this.db).execute({ taskId, limit });
  }

  /**
   * Records 1..10 findings of one review round. 422 `validation_failed` (field details such as
   * `findings[0].file`) for bad input, 404 when the task does not exist. Returns them in input order.
   */
  async raise(
    taskId: string,
    origin: FindingOrigin,
    round: number,
    author: string,
    findings: FindingInput[],
    options: WriteOptions = {},
  ): Promise<Finding[]> {
    const problems = raiseProblems(origin, round, author, findings);
    if (problems.length > 0) throw unprocessable('the findings are invalid', problems);
    const db = options.db ?? this.db;
    await this.requireTask(db, taskId);
    const now = this.platform.clock.now();
    const rows = await db
      .insert(taskFindings)
      .values(
        findings.map((finding) => ({
          ...normalizeFinding(finding),
          taskId,
          origin,
          round,
          authorSlug: author.trim(),
          status: 'open',
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning();
    return rows.sort((a, b) => a.seq - b.seq);
  }

  /**
   * Marks the referenced findings of the task addressed (open or already addressed ones; a
   * re-address keeps the earlier commit and note unless new ones are given). References that name
   * nothing, more than one finding, or a closed one are skipped and reported, never fatal: the
   * review gate re-surfaces what stays open. 422 for a malformed commit or note, 404 for no task.
   */
  async markAddressed(
    taskId: string,
    refs: AddressRef[],
    options: WriteOptions = {},
  ): Promise<AddressResult> {
    const problems = addressRefProblems(refs);
    if (problems.length > 0) throw unprocessable('the addressed findings are invalid', problems);
    const db = options.db ?? this.db;
    await this.requireTask(db, taskId);
    const ledger = await db
      .select({ id: taskFindings.id, status: taskFindings.status })
      .from(taskFindings)
      .where(eq(taskFindings.taskId, taskId));
    const ids = ledger.map((row) => row.id);
    const statusOf = new Map(ledger.map((row) => [row.id, row.status]));
    const result: AddressResult = { addressed: [], skipped: [] };
    const now = this.platform.clock.now();
    for (const ref of refs) {
      const match = resolveFindingRef(ref.finding_id, ids);
      if ('problem' in match) {
        result.skipped.push({ finding_id: ref.finding_id, reason: match.problem });
        continue;
      }
      if (!ADDRESSABLE_STATUSES.includes(statusOf.get(match.id)!)) {
        result.skipped.push({ finding_id: ref.finding_id, reason: 'closed' });
        continue;
      }
      const note = ref.note?.trim();
      const [row] = await db
        .update(taskFindings)
        .set({
          status: 'addressed',
          updatedAt: now,
          ...(ref.commit ? { addressedByCommit: ref.commit.trim().toLowerCase() } : {}),
          ...(note ? { resolutionNote: note } : {}),
        })
        .where(and(eq(taskFindings.id, match.id), inArray(taskFindings.status, [...ADDRESSABLE_STATUSES])))
        .returning();
      if (row) {
        result.addressed = result.addressed.filter((f) => f.id !== row.id).concat(row);
      } else {
        result.skipped.push({ finding_id: ref.finding_id, reason: 'closed' });
      }
    }
    return result;
  }

  /** Every addressed finding of this origin on the task becomes verified (the reviewer passed it). */
  async verifyAddressed(
    taskId: string,
    origin: FindingOrigin,
    options: WriteOptions = {},
  ): Promise<Finding[]> {
    if (!isFindingOrigin(origin)) {
      throw unprocessable('the origin is invalid', [{ field: 'origin', message: 'is not a finding origin' }]);
    }
    const db = options.db ?? this.db;
    await this.requireTask(db, taskId);
    const rows = await db
      .update(taskFindings)
      .set({ status: 'verified', updatedAt: this.platform.clock.now() })
      .where(
        and(
          eq(taskFindings.taskId, taskId),
          eq(taskFindings.origin, origin),
          eq(taskFindings.status, 'addressed'),
        ),
      )
      .returning();
    return rows.sort((a, b) => a.seq - b.seq);
  }

  /**
   * Waives a minor or nit finding with a reason. The finding is named by its full id, or by a
   * prefix when `taskId` scopes it. 404 when nothing matches, 422 `finding_ref_ambiguous`, 409
   * `finding_not_waivable` (blocker or major) or `finding_closed` (already verified). Waiving a
   * waived finding changes nothing.
   */
  async waive(
    findingId: string,
    waiver: { note: string; taskId?: string },
    options: WriteOptions = {},
  ): Promise<Finding> {
    const note = typeof waiver.note === 'string' ? waiver.note.trim() : '';
    if (note === '' || note.length > FINDING_LIMITS.note) {
      throw unprocessable('the waiver is invalid', [
        { field: 'note', message: `must be 1 to ${FINDING_LIMITS.note} characters` },
      ]);
    }
    const db = options.db ?? this.db;
    const finding = await this.findByRef(db, findingId, waiver.taskId);
    if (finding.status === 'waived') return finding;
    if (!canWaive(finding.severity)) {
      throw conflict(
        'finding_not_waivable',
        `a ${finding.severity} finding cannot be waived, only minor and nit`,
      );
    }
    if (!ADDRESSABLE_STATUSES.includes(finding.status)) {
      throw conflict('finding_closed', `finding ${finding.id} is already ${finding.status}`);
    }
    const [row] = await db
      .update(taskFindings)
      .set({ status: 'waived', resolutionNote: note, updatedAt: this.platform.clock.now() })
      .where(and(eq(taskFindings.id, finding.id), inArray(taskFindings.status, [...ADDRESSABLE_STATUSES])))
      .returning();
    if (!row) throw conflict('finding_closed', `finding ${finding.id} was closed meanwhile`);
    return row;
  }

  private async findByRef(db: Db, ref: string, taskId: string | undefined): Promise<Finding> {
    const parsed = parseFindingRef(ref);
    if (parsed?.kind === 'full') {
      const [row] = await db.select().from(taskFindings).where(eq(taskFindings.id, parsed.value)).limit(1);
      if (!row || (taskId && row.taskId !== taskId)) throw notFound(`there is no finding ${ref}`);
      return row;
    }
    if (!parsed || !taskId || !isUuid(taskId)) {
      throw unprocessable('the finding reference is invalid', [
        {
          field: 'finding_id',
          message: 'must be the full id, or a prefix of 8+ characters with the task id',
        },
      ]);
    }
    const rows = await db
      .select()
      .from(taskFindings)
      .where(and(eq(taskFindings.taskId, taskId), sql`${taskFindings.id}::text like ${`${parsed.value}%`}`))
      .limit(2);
    if (rows.length === 0) throw notFound(`there is no finding ${ref} on task ${taskId}`);
    if (rows.length > 1) {
      throw new AppError(
        422,
        'finding_ref_ambiguous',
        `${ref} names more than one finding; give more characters`,
      );
    }
    return rows[0]!;
  }

  private async requireTask(db: Db, taskId: string): Promise<void> {
    const found = isUuid(taskId) && (await taskExists(db, taskId));
    if (!found) throw notFound(`there is no task ${taskId}`);
  }
}
