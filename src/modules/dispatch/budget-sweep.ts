/**
 * The budget sweep, a loop of its own that no pause holds (a pause is not a cost loophole). It sums
 * the usage ledger per open task with a `budget_usd` and per project with a `monthly_budget_usd`
 * (the current UTC month). A breach — spent ≥ cap — is acted on once (recorded first, so one
 * replica acts and a raised cap can breach again): the task is blocked with a reason naming the
 * budget (for a project, every task being worked on in it), the agents running on it are stopped,
 * and the CEO is alerted. A blocked task keeps a pre-block snapshot, so a PM's unblock restores it.
 * While a project is over budget the dispatcher starts no work on it. The company-wide monthly cap
 * (setting `company_monthly_budget_usd`) alerts the CEO once per month and cap; while it is reached
 * the dispatcher starts nothing at all.
 */
import { eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { ESCALATION_SOURCES, IN_WORK_STATES, LIVE_STATES } from '../lifecycle/index.js';
import type { NotificationsService } from '../notifications/index.js';
import type { RuntimeSupervisor } from '../runtime/index.js';
import { budgetedTasksIn, projectTasksIn, SYSTEM_ACTOR, type TasksService } from '../tasks/index.js';
import { monthKey, type UsageService } from '../usage/index.js';
import { alertCeo, stopAgentsOn } from './actions.js';
import { overBudget, projectBudgets } from './candidates.js';
import { dispatchBudgetBreaches } from './schema.js';

export interface BudgetSweepDeps {
  db: Db;
  clock: Clock;
  tasks: TasksService;
  notifications: Pick<NotificationsService, 'send'>;
  supervisor: RuntimeSupervisor;
  usage: UsageService;
  killGraceSeconds: number;
}

export interface BudgetReport {
  /** Tasks blocked by this sweep (over their own budget or their project's). */
  blocked: string[];
  stopped: string[];
  breaches: { kind: BreachKind; id: string; cap_usd: number; spent_usd: number }[];
  errors: string[];
}

type BreachKind = 'task' | 'project' | 'company';

/** The subject id a company-wide breach is recorded under. */
const COMPANY_SUBJECT = '00000000-0000-0000-0000-000000000000';

/**
 * A task is blocked only from a state an unblock can restore (the states a PM may escalate from):
 * so never on the CEO's desk, where the work is done and only the sign-off is left.
 */
const blockable = (status: string) => (ESCALATION_SOURCES as readonly string[]).includes(status);
const usd = (amount: number) => `$${amount.toFixed(2)}`;

interface BlockTarget {
  id: string;
  title: string;
  status: string;
  assignedTo: string | null;
  activeClaimantId: string | null;
}

export async function budgetSweep(deps: BudgetSweepDeps, signal: AbortSignal): Promise<BudgetReport> {
  const report: BudgetReport = { blocked: [], stopped: [], breaches: [], errors: [] };
  await taskBudgets(deps, report, signal);
  await projectMonthBudgets(deps, report, signal);
  if (!signal.aborted) await companyMonthBudget(deps, report);
  return report;
}

/** The company-wide cap: the CEO hears of a breach once per month (and cap); the dispatcher holds every spawn meanwhile. */
async function companyMonthBudget(deps: BudgetSweepDeps, report: BudgetReport) {
  const now = deps.clock.now();
  const status = await deps.usage.companyMonthBudget(now);
  const cap = status.cap_usd;
  if (!status.over || cap === null) return;
  const period = monthKey(now);
  const breach = { kind: 'company' as const, id: COMPANY_SUBJECT, period, cap, spent: status.spent_usd };
  await onceFor(deps, report, breach, async () => {
    await alertCeo(deps.notifications, {
      subject: `Company monthly budget reached for ${period}`,
      body:
        `The company spent ${usd(status.spent_usd)} of its ${usd(cap)} monthly budget for ${period}. ` +
        'The dispatcher starts no new agent runs until the budget (setting company_monthly_budget_usd) is raised or ' +
        'the month ends; runs already going are left to finish.',
    });
  });
}

async function taskBudgets(deps: BudgetSweepDeps, report: BudgetReport, signal: AbortSignal) {
  const rows = await budgetedTasksIn(deps.db, LIVE_STATES);
  const spent = await deps.usage.spendByTask(rows.map((row) => row.id));
  for (const task of rows) {
    if (signal.aborted) return;
    const cap = task.budget!;
    const total = spent.get(task.id) ?? 0;
    if (total < cap) continue;
    await onceFor(deps, report, { kind: 'task', id: task.id, period: '', cap, spent: total }, async () => {
      const reason = `budget exceeded: task budget ${usd(cap)}, spent ${usd(total)}`;
      await block(deps, report, task, reason, { kind: 'task', cap_usd: cap, spent_usd: total });
      await alertCeo(deps.notifications, {
        subject: `Budget exceeded: ${task.title}`,
        body: `Task ${task.id} spent ${usd(total)} of its ${usd(cap)} budget. Its agent was stopped and the task blocked; raise the budget and unblock it to go on.`,
        taskId: task.id,
      });
    });
  }
}

async function projectMonthBudgets(deps: BudgetSweepDeps, report: BudgetReport, signal: AbortSignal) {
  const now = deps.clock.now();
  const period = monthKey(now);
  for (const project of (await projectBudgets(deps.db, deps.usage, now)).filter(overBudget)) {
    if (signal.aborted) return;
    const breach = {
      kind: 'project' as const,
      id: project.id,
      period,
      cap: project.capUsd,
      spent: project.spentUsd,
    };
    await onceFor(deps, report, breach, async () => {
      const reason =
        `budget exceeded: project ${project.slug} monthly budget ${usd(project.capUsd)} for ${period}, ` +
        `spent ${usd(project.spentUsd)}`;
      const working = await projectTasksIn(deps.db, project.id, IN_WORK_STATES);
      for (const task of working) {
        await block(deps, report, task, reason, {
          kind: 'project',
          cap_usd: project.capUsd,
          spent_usd: project.spentUsd,
          period,
        });
      }
      await alertCeo(deps.notifications, {
        subject: `Monthly budget exceeded: ${project.slug}`,
        body:
          `Project ${project.slug} spent ${usd(project.spentUsd)} of its ${usd(project.capUsd)} budget for ${period}. ` +
          `${working.length} task(s) in progress were blocked and their agents stopped; no new work starts on it ` +
          'until the budget is raised or the month ends.',
      });
    });
  }
}

/** Runs `act` if this breach was not acted on before (claimed by inserting its row; undone on failure). */
async function onceFor(
  deps: BudgetSweepDeps,
  report: BudgetReport,
  breach: { kind: BreachKind; id: string; period: string; cap: number; spent: number },
  act: () => Promise<void>,
) {
  const [claimed] = await deps.db
    .insert(dispatchBudgetBreaches)
    .values({
      kind: breach.kind,
      subjectId: breach.id,
      period: breach.period,
      capUsd: breach.cap,
      spentUsd: breach.spent,
      at: deps.clock.now(),
    })
    .onConflictDoNothing()
    .returning({ id: dispatchBudgetBreaches.id });
  if (!claimed) return;
  report.breaches.push({ kind: breach.kind, id: breach.id, cap_usd: breach.cap, spent_usd: breach.spent });
  try {
    await act();
  } catch (error) {
    report.errors.push(`${breach.kind} ${breach.id}: ${(error as Error).message}`);
    await deps.db.delete(dispatchBudgetBreaches).where(eq(dispatchBudgetBreaches.id, claimed.id));
  }
}

/** Blocks the task (pre-block snapshot and budget marker first, so an unblock restores it), then stops its agents. */
async function block(
  deps: BudgetSweepDeps,
  report: BudgetReport,
  task: BlockTarget,
  reason: string,
  marker: Record<string, unknown>,
) {
  if (blockable(task.status)) {
    const now = deps.clock.now().toISOString();
    const snapshot = { status: task.status, assigned_to: task.assignedTo, by: SYSTEM_ACTOR.id, at: now };
    await deps.tasks.recordFacts(
      task.id,
      { markers: { pre_block: snapshot, budget_blocked: { ...marker, at: now } } },
      SYSTEM_ACTOR,
      { action: 'budget_blocked', data: marker },
    );
    await deps.tasks.update(task.id, { status: 'blocked', reason }, SYSTEM_ACTOR);
    report.blocked.push(task.id);
  }
  const stopped = await stopAgentsOn(deps.supervisor, task.id, task.activeClaimantId, {
    graceful: true,
    graceSeconds: deps.killGraceSeconds,
  });
  report.stopped.push(...stopped.map((entry) => entry.agentId));
}
