/**
 * The usage ledger's service: records one usage entry (the project is taken from the task when
 * not given) and sums cost per task and per project over a budget month, for the budget sweep and
 * the dispatcher. Bad input is a 422 with field details; a reference to a missing agent, task or
 * project is 422 `unknown_reference`.
 */
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { isForeignKeyViolation } from '../../platform/db/errors.js';
import { AppError, type FieldProblem, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { tasks } from '../tasks/index.js';
import { monthWindow } from './month.js';
import { usageRecords } from './schema.js';

export type UsageRow = typeof usageRecords.$inferSelect;

export interface UsageInput {
  agent_id?: string | null;
  task_id?: string | null;
  /** Taken from the task when absent. */
  project_id?: string | null;
  provider: string;
  model?: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** When the usage happened; default now. */
  at?: Date;
}

const ID_FIELDS = ['agent_id', 'task_id', 'project_id'] as const;
const COUNT_FIELDS = ['input_tokens', 'output_tokens'] as const;

function inputProblems(input: UsageInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of ID_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== null && !isUuid(value)) {
      problems.push({ field, message: 'must be a UUID' });
    }
  }
  if (!input.provider?.trim()) problems.push({ field: 'provider', message: 'is required' });
  for (const field of COUNT_FIELDS) {
    if (!Number.isSafeInteger(input[field]) || input[field] < 0) {
      problems.push({ field, message: 'must be a whole number, 0 or more' });
    }
  }
  if (!Number.isFinite(input.cost_usd) || input.cost_usd < 0) {
    problems.push({ field: 'cost_usd', message: 'must be a number, 0 or more' });
  }
  return problems;
}

/** A `sum(cost_usd)` as a number (Postgres answers numeric sums as text). */
const costSum = sql<string | null>`sum(${usageRecords.costUsd})`;

export class UsageService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async record(input: UsageInput): Promise<UsageRow> {
    const problems = inputProblems(input);
    if (problems.length > 0) throw unprocessable('the usage record is invalid', problems);
    const projectId = input.project_id ?? (input.task_id ? await this.projectOf(input.task_id) : null);
    try {
      const [row] = await this.db
        .insert(usageRecords)
        .values({
          agentId: input.agent_id ?? null,
          taskId: input.task_id ?? null,
          projectId,
          provider: input.provider.trim(),
          model: input.model?.trim() || null,
          inputTokens: input.input_tokens,
          outputTokens: input.output_tokens,
          costUsd: input.cost_usd,
          at: input.at ?? this.clock.now(),
        })
        .returning();
      return row!;
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw new AppError(
          422,
          'unknown_reference',
          'the agent, task or project of this usage does not exist',
        );
      }
      throw error;
    }
  }

  /** Everything spent on one task, in USD. */
  async taskSpend(taskId: string): Promise<number> {
    return (await this.spendByTask([taskId])).get(taskId) ?? 0;
  }

  /** USD spent per task (tasks with nothing recorded are absent). */
  async spendByTask(taskIds: readonly string[]): Promise<Map<string, number>> {
    if (taskIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: usageRecords.taskId, spent: costSum })
      .from(usageRecords)
      .where(inArray(usageRecords.taskId, [...taskIds]))
      .groupBy(usageRecords.taskId);
    return new Map(rows.map((row) => [row.id!, Number(row.spent ?? 0)]));
  }

  /** USD spent company-wide in `[start, end)`. */
  async spendBetween(start: Date, end: Date): Promise<number> {
    const [row] = await this.db
      .select({ spent: costSum })
      .from(usageRecords)
      .where(and(gte(usageRecords.at, start), lt(usageRecords.at, end)));
    return Number(row?.spent ?? 0);
  }

  /** USD spent on a project in the (UTC) calendar month of `at`. */
  async projectMonthSpend(projectId: string, at: Date = this.clock.now()): Promise<number> {
    return (await this.spendByProjectMonth([projectId], at)).get(projectId) ?? 0;
  }

  /** USD spent per project in the (UTC) calendar month of `at` (projects with nothing recorded are absent). */
  async spendByProjectMonth(
    projectIds: readonly string[],
    at: Date = this.clock.now(),
  ): Promise<Map<string, number>> {
    if (projectIds.length === 0) return new Map();
    const { start, end } = monthWindow(at);
    const rows = await this.db
      .select({ id: usageRecords.projectId, spent: costSum })
      .from(usageRecords)
      .where(
        and(
          inArray(usageRecords.projectId, [...projectIds]),
          gte(usageRecords.at, start),
          lt(usageRecords.at, end),
        ),
      )
      .groupBy(usageRecords.projectId);
    return new Map(rows.map((row) => [row.id!, Number(row.spent ?? 0)]));
  }

  private async projectOf(taskId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ projectId: tasks.projectId })
      .from(tasks)
      .where(eq(tasks.id, taskId))
      .limit(1);
    return row?.projectId ?? null;
  }
}
