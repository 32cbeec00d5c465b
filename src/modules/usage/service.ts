/**
 * The usage ledger's service: records one usage entry — the project taken from the task and the
 * agent's role and team from the agent when not given, the cost from the price table when not
 * given — and sums cost per task and per project over a budget month, for the budget sweep and
 * the dispatcher. Bad input is a 422 with field details; a reference to a missing agent, task or
 * project is 422 `unknown_reference`. Every record is announced to `onRecorded` (the snapshots).
 */
import { and, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { isForeignKeyViolation } from '../../platform/db/errors.js';
import { AppError, type FieldProblem, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { findAgentRef } from '../agents/index.js';
import { projectOfTask } from '../tasks/index.js';
import { monthWindow } from './month.js';
import { costOf, type PriceTable, priceFor, roundUsd } from './prices.js';
import { usageRecords } from './schema.js';

export type UsageRow = typeof usageRecords.$inferSelect;

/** How usage reached the ledger. */
export const USAGE_SOURCES = ['adapter', 'process', 'reported'] as const;
export type UsageSource = (typeof USAGE_SOURCES)[number];

export interface UsageInput {
  agent_id?: string | null;
  task_id?: string | null;
  /** Taken from the task when absent. */
  project_id?: string | null;
  provider: string;
  model?: string | null;
  /** Prompt tokens at the full input price (cache reads and writes apart). */
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  /** Priced from the model's entry of the price table when absent. */
  cost_usd?: number | null;
  /** Default `process`. */
  source?: UsageSource;
  /** When the usage happened; default now. */
  at?: Date;
}

export interface UsageServiceOptions {
  /** The price table in force (built-in prices with the `model_prices` setting laid over). */
  prices?: () => Promise<PriceTable>;
  /** Told after every record (the USAGE_SNAPSHOT coalescer). */
  onRecorded?: (row: UsageRow) => void;
  /** The company-wide monthly cap in USD (setting company_monthly_budget_usd); null = none. */
  companyCap?: () => Promise<number | null>;
}

/** The company's spend in a (UTC) month against its cap. */
export interface CompanyBudget {
  cap_usd: number | null;
  spent_usd: number;
  /** Spent reached the cap. */
  over: boolean;
}

/** Most tokens one record may carry (the column is a 32-bit integer). */
export const MAX_TOKENS = 2_000_000_000;
/** Most USD one record may carry (the column is numeric(14, 6)). */
export const MAX_COST = 10_000_000;

const ID_FIELDS = ['agent_id', 'task_id', 'project_id'] as const;
const COUNT_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'] as const;

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
    const value = input[field] ?? 0;
    if (!Number.isSafeInteger(value) || value < 0 || value > MAX_TOKENS) {
      problems.push({ field, message: `must be a whole number from 0 to ${MAX_TOKENS}` });
    }
  }
  const cost = input.cost_usd;
  if (cost !== undefined && cost !== null && (!Number.isFinite(cost) || cost < 0 || cost > MAX_COST)) {
    problems.push({ field: 'cost_usd', message: `must be a number from 0 to ${MAX_COST}` });
  }
  if (input.source !== undefined && !USAGE_SOURCES.includes(input.source)) {
    problems.push({ field: 'source', message: `must be one of ${USAGE_SOURCES.join(', ')}` });
  }
  return problems;
}

/** A `sum(cost_usd)` as a number (Postgres answers numeric sums as text). */
const costSum = sql<string | null>`sum(${usageRecords.costUsd})`;

export class UsageService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly options: UsageServiceOptions = {},
  ) {}

  /** The price table in force. */
  async prices(): Promise<PriceTable> {
    return (await this.options.prices?.()) ?? {};
  }

  /** What the tokens of `model` cost at the table in force, in USD. */
  async priceOf(model: string | null | undefined, tokens: Parameters<typeof costOf>[0]): Promise<number> {
    return costOf(tokens, priceFor(model, await this.prices()));
  }

  async record(input: UsageInput): Promise<UsageRow> {
    const problems = inputProblems(input);
    if (problems.length > 0) throw unprocessable('the usage record is invalid', problems);
    const projectId = input.project_id ?? (input.task_id ? await this.projectOf(input.task_id) : null);
    const agent = input.agent_id ? await this.agentOf(input.agent_id) : null;
    const model = input.model?.trim() || null;
    const tokens = {
      input_tokens: input.input_tokens,
      output_tokens: input.output_tokens,
      cache_read_tokens: input.cache_read_tokens ?? 0,
      cache_write_tokens: input.cache_write_tokens ?? 0,
    };
    const cost =
      input.cost_usd === undefined || input.cost_usd === null
        ? await this.priceOf(model, tokens)
        : roundUsd(input.cost_usd);
    try {
      const [row] = await this.db
        .insert(usageRecords)
        .values({
          agentId: input.agent_id ?? null,
          taskId: input.task_id ?? null,
          projectId,
          agentRole: agent?.role ?? null,
          agentTeam: agent?.team ?? null,
          source: input.source ?? 'process',
          provider: input.provider.trim(),
          model,
          inputTokens: tokens.input_tokens,
          outputTokens: tokens.output_tokens,
          cacheReadTokens: tokens.cache_read_tokens,
          cacheWriteTokens: tokens.cache_write_tokens,
          costUsd: cost,
          at: input.at ?? this.clock.now(),
        })
        .returning();
      this.options.onRecorded?.(row!);
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

  /** The company's spend in the (UTC) month of `at` against its monthly cap (no query when there is no cap). */
  async companyMonthBudget(at: Date = this.clock.now()): Promise<CompanyBudget> {
    const cap = (await this.options.companyCap?.()) ?? null;
    if (cap === null) return { cap_usd: null, spent_usd: 0, over: false };
    const { start, end } = monthWindow(at);
    const spent = roundUsd(await this.spendBetween(start, end));
    return { cap_usd: cap, spent_usd: spent, over: spent >= cap };
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

  private agentOf(agentId: string): Promise<{ role: string; team: string | null } | null> {
    return findAgentRef(this.db, agentId);
  }

  private projectOf(taskId: string): Promise<string | null> {
    return projectOfTask(this.db, taskId);
  }
}
