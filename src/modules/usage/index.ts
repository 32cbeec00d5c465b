/**
 * The usage ledger's outside face: the table of usage records (tokens incl. cache reads and
 * writes, and cost, per model call or reported turn), the service that records them (pricing from
 * the price table when no cost is given) and sums spend for the budget sweep, the /api/usage
 * analytics routes, and the USAGE_SNAPSHOT feed on /ws/system. Usage reaches it from the model
 * adapters, the agent CLIs' usage lines and the gateway's report_usage, all through `service.record`.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { AgentsModule } from '../agents/index.js';
import type { SettingsModule } from '../settings/index.js';
import { UsageAnalytics } from './analytics.js';
import { priceTable } from './prices.js';
import { registerUsageRoutes } from './routes.js';
import { RunCostBook } from './run-costs.js';
import { type UsageInput, UsageService } from './service.js';
import { SNAPSHOT_INTERVAL_MS, SNAPSHOT_LOOP, UsageSnapshots } from './snapshots.js';

export {
  BREAKDOWNS,
  type Breakdown,
  summarySql,
  type UsageAnalytics,
  type UsageProjection,
  type UsageSummary,
} from './analytics.js';
export type { UsageSnapshot } from './events.js';
export { type MonthWindow, monthKey, monthWindow } from './month.js';
export { PERIODS, type Period, periodWindows } from './periods.js';
export { costOf, DEFAULT_MODEL_PRICES, type ModelPrice, type PriceTable, priceFor } from './prices.js';
export { type RunWindow, runSpend } from './run-spend.js';
export {
  type CompanyBudget,
  MAX_TOKENS,
  type UsageInput,
  type UsageRow,
  UsageService,
  type UsageSource,
} from './service.js';
export { SNAPSHOT_LOOP } from './snapshots.js';
export { type TaskUsage, usageOfTasks } from './task-usage.js';

/** Tokens one model call or one agent's usage line reported. */
export interface ReportedTokens {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

/** What an agent CLI's output reported during a run (the runtime's usage-line reader). */
export interface RunUsageReport extends ReportedTokens {
  agentId: string;
  taskId: string | null;
  runId: string;
  provider: string;
  model: string | null;
  /** The whole run's cost so far as the CLI reported it (USD); null: price these tokens from the table. */
  run_cost_usd: number | null;
}

/** One call of Gaffer's own model adapters (platform/llm's onUsage). */
export interface ModelCallReport {
  provider: string;
  model: string;
  usage: ReportedTokens;
}

export interface UsageModule extends ModuleFace {
  service: UsageService;
  analytics: UsageAnalytics;
  /** Records an agent CLI's usage line against its run's agent and task; a failure is logged, never thrown. */
  recordRunUsage(report: RunUsageReport): Promise<void>;
  /** Records one model-adapter call; a failure is logged, never thrown. */
  recordModelCall(report: ModelCallReport): Promise<void>;
}

/** What this module is handed: the roster (agent names), the settings (prices, company cap), the scheduler. */
export interface UsageDeps {
  agents: Pick<AgentsModule, 'service'>;
  settings: SettingsModule;
  scheduler: Scheduler;
}

export function createUsageModule({ platform, deps }: ModuleInput<UsageDeps>): UsageModule {
  const { db } = platform.database;
  const settings = deps.settings.service;
  const analytics = new UsageAnalytics(db, platform.clock, () => settings.get('company_monthly_budget_usd'));
  const snapshots = new UsageSnapshots(platform.bus, platform.clock, analytics, platform.log);
  const service = new UsageService(db, platform.clock, {
    prices: async () => priceTable(await settings.get('model_prices')),
    onRecorded: () => snapshots.recorded(),
    companyCap: () => settings.get('company_monthly_budget_usd'),
  });
  deps.scheduler.register({
    name: SNAPSHOT_LOOP,
    intervalMs: SNAPSHOT_INTERVAL_MS,
    run: () => snapshots.publish(),
  });
  /** Records `input` and answers what it cost (0 when recording failed, which is logged). */
  const safely = (what: string, input: UsageInput) =>
    service.record(input).then(
      (row) => Number(row.costUsd),
      (error: unknown) => {
        platform.log.warn({ err: error }, `usage: recording ${what} failed`);
        return 0;
      },
    );
  const runCosts = new RunCostBook((input) => safely('an agent usage line', input));
  return {
    service,
    analytics,
    recordRunUsage: (report) =>
      runCosts.book(
        report.runId,
        {
          agent_id: report.agentId,
          task_id: report.taskId,
          provider: report.provider,
          model: report.model,
          input_tokens: report.input_tokens,
          output_tokens: report.output_tokens,
          cache_read_tokens: report.cache_read_tokens,
          cache_write_tokens: report.cache_write_tokens,
          source: 'process',
        },
        report.run_cost_usd,
      ),
    recordModelCall: async (report) => {
      await safely('a model call', {
        provider: report.provider,
        model: report.model,
        ...report.usage,
        source: 'adapter',
      });
    },
    registerRoutes: (app) => registerUsageRoutes(app, analytics, deps.agents.service),
    stop: () => snapshots.close(),
  };
}
