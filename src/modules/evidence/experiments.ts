/**
 * Experiments: the CEO splits one role's work between two routes (CLI, provider and model) by a
 * share. The first time an agent of the role starts on a task while the experiment runs, the task
 * gets an arm — by a hash of the experiment and the task, so every replica picks the same — and
 * keeps it, recorded in `experiment_tasks`. The experiment ends once its number of tasks have all
 * ended (it hands out no arm past that number), at its cost cap, when one arm's failure-on-start rate passes its bound (that arm's tasks go back to the usual
 * route at once), or when the CEO stops it. Adopting an arm sets the role's route; the record stays.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import { type Db, queryRows } from '../../platform/db/client.js';
import { isRole } from '../../platform/http/auth/identity.js';
import { conflict, notFound, unprocessable } from '../../platform/http/errors.js';
import { runsOnTasks } from '../runtime/index.js';
import {
  ARMS,
  type Arm,
  type ArmFigures,
  type ArmSums,
  armFigures,
  armLabel,
  EMPTY_SUMS,
  type Verdict,
  verdictOf,
} from './experiment-verdict.js';
import { failedOnStart } from './outcome.js';
import { type ArmRoute, experiments, experimentTasks, taskOutcomes } from './schema.js';
import { outcomeSums } from './sums.js';

/**
 * An arm's failure-on-start rate is judged from this many of its runs on: soon enough that a CLI
 * that cannot start is stopped before the respawn breaker gives up on the task it failed on.
 */
export const START_FAILURE_MIN_RUNS = 2;
export const DEFAULT_MAX_TASKS = 40;
export const DEFAULT_START_FAILURE_BOUND = 0.5;

export type ExperimentRow = typeof experiments.$inferSelect;
export type EndReason = 'task_count' | 'cost_cap' | 'start_failures' | 'stopped';

export interface ExperimentInput {
  role: string;
  a: Partial<ArmRoute>;
  b: Partial<ArmRoute>;
  share_b: number;
  max_tasks?: number;
  cost_cap_usd?: number | null;
  start_failure_bound?: number;
}

export interface ExperimentView {
  id: string;
  role: string;
  status: 'running' | 'ended';
  ended_reason: EndReason | null;
  stopped_arm: Arm | null;
  adopted_arm: Arm | null;
  share_b: number;
  max_tasks: number;
  cost_cap_usd: number | null;
  start_failure_bound: number;
  started_at: string;
  ended_at: string | null;
  adopted_at: string | null;
  arms: Record<Arm, ArmRoute & ArmFigures & { share: number }>;
  verdict: Verdict;
}

/** What the experiments use of the providers module: the names to check arms, the route to adopt. */
export interface ExperimentProviders {
  names(): Promise<string[]>;
  /** The provider and model the role runs now (its route, else the global one); null: none. */
  routeOfRole(role: string): Promise<{ provider: string; model: string } | null>;
  setRoleRoute(role: string, route: { provider: string; model: string | null }): Promise<void>;
}

export interface ExperimentsDeps {
  db: Db;
  clock: Clock;
  providers: ExperimentProviders;
  /** The roster ids of the role's agents (whose runs on an arm's tasks are the arm's runs). */
  agentIdsOfRole: (role: string) => Promise<string[]>;
  /** The agent CLIs this server can start (its command templates, or `scripted`). */
  clis: () => readonly string[];
  /** The CLI every agent runs unless an arm names another (GAFFER_AGENT_PROVIDER). */
  serverCli: () => string;
  /** Told once when an experiment ends (the CEO's advice card). */
  onEnded?: (experiment: ExperimentView) => Promise<void>;
}

const clean = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);
const routeOf = (arm: Partial<ArmRoute>): ArmRoute => ({
  cli: clean(arm.cli),
  provider: clean(arm.provider),
  model: clean(arm.model),
});
const describeArm = (route: ArmRoute) =>
  [route.cli, route.provider, route.model].filter(Boolean).join(' · ') || 'the usual route';

/**
 * Whether the arm's tasks are back on the usual route: a stopped arm's, and every task of an
 * experiment the CEO stopped or its cost cap ended (a full one's tasks keep their arm to the end).
 */
const released = (experiment: ExperimentRow, arm: Arm) =>
  experiment.stoppedArm === arm ||
  experiment.endedReason === 'stopped' ||
  experiment.endedReason === 'cost_cap';

/** The arm of a task: `b` for share_b of 100 hash buckets, else `a`. */
export function armOf(experimentId: string, taskId: string, shareB: number): Arm {
  const bucket = createHash('sha256').update(`${experimentId}:${taskId}`).digest().readUInt32BE(0) % 100;
  return bucket < shareB ? 'b' : 'a';
}

export class ExperimentsService {
  constructor(private readonly deps: ExperimentsDeps) {}

  async create(input: ExperimentInput): Promise<ExperimentView> {
    const a = routeOf(input.a);
    const b = routeOf(input.b);
    const problems: { field: string; message: string }[] = [];
    if (!isRole(input.role)) problems.push({ field: 'role', message: `${input.role} is not a role` });
    const providers = new Set(await this.deps.providers.names());
    const clis = this.deps.clis();
    for (const [field, arm] of [
      ['a', a],
      ['b', b],
    ] as const) {
      if (!arm.cli && !arm.provider && !arm.model)
        problems.push({ field, message: 'name a CLI, a provider or a model' });
      if (arm.provider && !providers.has(arm.provider))
        problems.push({ field: `${field}.provider`, message: `no model provider named ${arm.provider}` });
      if (arm.cli && !clis.includes(arm.cli))
        problems.push({
          field: `${field}.cli`,
          message: `no agent CLI ${arm.cli} here (known: ${clis.join(', ')})`,
        });
    }
    if (JSON.stringify(a) === JSON.stringify(b))
      problems.push({ field: 'b', message: 'the arms are the same route' });
    if (problems.length)
      throw unprocessable(problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems);
    const running = await this.runningFor(input.role);
    if (running) throw this.alreadyRunning(running);
    try {
      const [row] = await this.deps.db
        .insert(experiments)
        .values({
          role: input.role,
          armA: a,
          armB: b,
          shareB: input.share_b,
          maxTasks: input.max_tasks ?? DEFAULT_MAX_TASKS,
          costCapUsd: input.cost_cap_usd ?? null,
          startFailureBound: input.start_failure_bound ?? DEFAULT_START_FAILURE_BOUND,
          startedAt: this.deps.clock.now(),
        })
        .returning();
      return this.view(row!);
    } catch (error) {
      // Another request started one for the role first (the one-running index).
      const raced = await this.runningFor(input.role);
      if (raced) throw this.alreadyRunning(raced);
      throw error;
    }
  }

  async list(limit = 50): Promise<ExperimentView[]> {
    const rows = await this.deps.db
      .select()
      .from(experiments)
      .orderBy(sql`${experiments.status} = 'running' desc`, desc(experiments.startedAt))
      .limit(limit);
    return Promise.all(rows.map((row) => this.view(row)));
  }

  async get(id: string): Promise<ExperimentView> {
    return this.view(await this.row(id));
  }

  async stop(id: string): Promise<ExperimentView> {
    const row = await this.row(id);
    if (row.status !== 'running') throw conflict('experiment_ended', 'the experiment has already ended');
    return this.view(await this.end(row, 'stopped', null));
  }

  /** Sets the role's route to the arm's provider (or the role's current one) and model. */
  async adopt(id: string, arm: Arm): Promise<ExperimentView> {
    const row = await this.row(id);
    if (row.status === 'running')
      throw conflict('experiment_running', 'the experiment is still running: stop it, or wait for it to end');
    const route = arm === 'a' ? row.armA : row.armB;
    const serverCli = this.deps.serverCli();
    if (route.cli && route.cli !== serverCli) {
      throw conflict(
        'cli_not_routable',
        `arm ${armLabel(arm)} runs the ${route.cli} CLI, and every agent runs ${serverCli}: the CLI is the server's GAFFER_AGENT_PROVIDER`,
        { cli: route.cli },
      );
    }
    const current = route.provider ? null : await this.deps.providers.routeOfRole(row.role);
    const provider = route.provider ?? current?.provider;
    if (provider) await this.deps.providers.setRoleRoute(row.role, { provider, model: route.model });
    else if (route.model) {
      throw conflict(
        'no_model_provider',
        `no model provider routes the ${row.role} role, so its model cannot be set: connect one on Settings → Models & agents`,
      );
    }
    const [adopted] = await this.deps.db
      .update(experiments)
      .set({ adoptedArm: arm, adoptedAt: this.deps.clock.now() })
      .where(eq(experiments.id, id))
      .returning();
    return this.view(adopted!);
  }

  /** The experiments a task is part of and the arm it runs on in each. */
  async armsOfTask(taskId: string) {
    const rows = await this.deps.db
      .select({ experiment: experiments, arm: experimentTasks.arm })
      .from(experimentTasks)
      .innerJoin(experiments, eq(experiments.id, experimentTasks.experimentId))
      .where(eq(experimentTasks.taskId, taskId))
      .orderBy(desc(experiments.startedAt));
    return rows.map(({ experiment, arm }) => ({
      experiment_id: experiment.id,
      role: experiment.role,
      arm: arm as Arm,
      route: arm === 'a' ? experiment.armA : experiment.armB,
      status: experiment.status as 'running' | 'ended',
      released: released(experiment, arm as Arm),
    }));
  }

  /**
   * The route an agent of `role` runs on `taskId`, when an experiment gives it one: the task's arm
   * (chosen now if the role's running experiment has room), null for the usual route.
   */
  async armFor(role: string, taskId: string | null): Promise<ArmRoute | null> {
    if (!taskId) return null;
    const [assigned] = await this.deps.db
      .select({ experiment: experiments, arm: experimentTasks.arm })
      .from(experimentTasks)
      .innerJoin(experiments, eq(experiments.id, experimentTasks.experimentId))
      .where(and(eq(experimentTasks.taskId, taskId), eq(experiments.role, role)))
      .orderBy(desc(experiments.startedAt))
      .limit(1);
    let experiment = assigned?.experiment ?? (await this.runningFor(role));
    if (!experiment) return null;
    if (experiment.status === 'running') experiment = await this.checkStops(experiment);
    let arm = assigned?.arm as Arm | undefined;
    if (!arm) {
      if (experiment.status !== 'running') return null;
      arm = (await this.assign(experiment, taskId)) ?? undefined;
      if (!arm) return null;
    }
    if (released(experiment, arm)) return null;
    return arm === 'a' ? experiment.armA : experiment.armB;
  }

  private async assign(experiment: ExperimentRow, taskId: string): Promise<Arm | null> {
    const arm = armOf(experiment.id, taskId, experiment.shareB);
    const given = await this.deps.db.transaction(async (tx) => {
      // One assignment at a time per experiment, so the task count is never passed.
      await queryRows(tx, sql`select id from ${experiments} where id = ${experiment.id} for update`);
      const [given] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from ${experimentTasks} where experiment_id = ${experiment.id}`,
      );
      if ((given?.n ?? 0) >= experiment.maxTasks) return false;
      await tx
        .insert(experimentTasks)
        .values({ experimentId: experiment.id, taskId, arm })
        .onConflictDoNothing();
      return true;
    });
    if (!given) return null;
    const [row] = await this.deps.db
      .select({ arm: experimentTasks.arm })
      .from(experimentTasks)
      .where(and(eq(experimentTasks.experimentId, experiment.id), eq(experimentTasks.taskId, taskId)));
    return (row?.arm as Arm | undefined) ?? null;
  }

  /** Ends a running experiment whose task count, cost cap or an arm's start failures says so. */
  private async checkStops(experiment: ExperimentRow): Promise<ExperimentRow> {
    const sums = await this.sums(experiment);
    for (const arm of ARMS) {
      const { runs, failed_on_start } = sums[arm];
      if (runs >= START_FAILURE_MIN_RUNS && failed_on_start / runs > experiment.startFailureBound)
        return this.end(experiment, 'start_failures', arm);
    }
    const cost = sums.a.cost + sums.b.cost;
    if (experiment.costCapUsd !== null && cost >= experiment.costCapUsd)
      return this.end(experiment, 'cost_cap', null);
    // Full, and every one of its tasks has ended: the figures are all in.
    const tasks = sums.a.tasks + sums.b.tasks;
    if (tasks >= experiment.maxTasks && sums.a.ended + sums.b.ended >= tasks)
      return this.end(experiment, 'task_count', null);
    return experiment;
  }

  /** Looks again at the running experiments these tasks belong to (after their outcomes were folded). */
  async review(taskIds: readonly string[]): Promise<void> {
    if (taskIds.length === 0) return;
    const rows = await this.deps.db
      .selectDistinct({ experiment: experiments })
      .from(experimentTasks)
      .innerJoin(experiments, eq(experiments.id, experimentTasks.experimentId))
      .where(and(inArray(experimentTasks.taskId, [...taskIds]), eq(experiments.status, 'running')));
    for (const { experiment } of rows) await this.checkStops(experiment);
  }

  /** Ends it once (the first replica to say so wins) and tells the CEO. */
  private async end(
    experiment: ExperimentRow,
    reason: EndReason,
    stoppedArm: Arm | null,
  ): Promise<ExperimentRow> {
    // The arms' figures are read once: for the verdict kept on the row and for the CEO's card.
    const changes = { status: 'ended', endedReason: reason, stoppedArm, endedAt: this.deps.clock.now() };
    const view = await this.view({ ...experiment, ...changes });
    const [ended] = await this.deps.db
      .update(experiments)
      .set({ ...changes, verdict: view.verdict.text })
      .where(and(eq(experiments.id, experiment.id), eq(experiments.status, 'running')))
      .returning();
    if (!ended) return this.row(experiment.id);
    await this.deps.onEnded?.(view);
    return ended;
  }

  /** The roles an experiment runs on now. */
  async runningRoles(): Promise<Set<string>> {
    const rows = await this.deps.db
      .select({ role: experiments.role })
      .from(experiments)
      .where(eq(experiments.status, 'running'));
    return new Set(rows.map((row) => row.role));
  }

  private async runningFor(role: string): Promise<ExperimentRow | null> {
    const [row] = await this.deps.db
      .select()
      .from(experiments)
      .where(and(eq(experiments.role, role), eq(experiments.status, 'running')));
    return row ?? null;
  }

  private alreadyRunning(running: ExperimentRow) {
    return conflict(
      'experiment_running',
      `an experiment on the ${running.role} role is running: stop it first`,
      {
        experiment_id: running.id,
      },
    );
  }

  private async row(id: string): Promise<ExperimentRow> {
    const [row] = await this.deps.db.select().from(experiments).where(eq(experiments.id, id));
    if (!row) throw notFound(`no experiment ${id}`);
    return row;
  }

  /**
   * Each arm's sums over its tasks' outcome rows, and its runs: those of the role's agents on its
   * tasks since they got the arm, read from the runs themselves (a run that could not start is
   * counted the moment it is recorded, before any fold).
   */
  private async sums(experiment: ExperimentRow): Promise<Record<Arm, ArmSums>> {
    const id = experiment.id;
    const rows = await this.deps.db
      .select({ arm: experimentTasks.arm, ...outcomeSums() })
      .from(experimentTasks)
      .leftJoin(taskOutcomes, eq(taskOutcomes.taskId, experimentTasks.taskId))
      .where(eq(experimentTasks.experimentId, id))
      .groupBy(experimentTasks.arm);
    const byArm = { a: { ...EMPTY_SUMS }, b: { ...EMPTY_SUMS } };
    for (const { arm, ...sums } of rows) Object.assign(byArm[arm as Arm], sums);
    const given = await this.deps.db
      .select({ taskId: experimentTasks.taskId, arm: experimentTasks.arm, at: experimentTasks.assignedAt })
      .from(experimentTasks)
      .where(eq(experimentTasks.experimentId, id));
    const tasks = new Map(given.map((task) => [task.taskId, task]));
    const role = new Set(await this.deps.agentIdsOfRole(experiment.role));
    for (const run of await runsOnTasks(this.deps.db, [...tasks.keys()])) {
      const task = run.taskId ? tasks.get(run.taskId) : undefined;
      if (!task || !run.endedAt || !role.has(run.agentId) || run.startedAt < task.at) continue;
      const sums = byArm[task.arm as Arm];
      sums.runs++;
      if (failedOnStart(run)) sums.failed_on_start++;
    }
    return byArm;
  }

  private async view(row: ExperimentRow): Promise<ExperimentView> {
    const sums = await this.sums(row);
    const figures = { a: armFigures(sums.a), b: armFigures(sums.b) };
    return {
      id: row.id,
      role: row.role,
      status: row.status as ExperimentView['status'],
      ended_reason: row.endedReason as EndReason | null,
      stopped_arm: row.stoppedArm as Arm | null,
      adopted_arm: row.adoptedArm as Arm | null,
      share_b: row.shareB,
      max_tasks: row.maxTasks,
      cost_cap_usd: row.costCapUsd,
      start_failure_bound: row.startFailureBound,
      started_at: row.startedAt.toISOString(),
      ended_at: row.endedAt?.toISOString() ?? null,
      adopted_at: row.adoptedAt?.toISOString() ?? null,
      arms: {
        a: { ...row.armA, share: 100 - row.shareB, ...figures.a },
        b: { ...row.armB, share: row.shareB, ...figures.b },
      },
      verdict: verdictOf(figures),
    };
  }
}

/** The advice card's words for an ended experiment. */
export function endedCard(experiment: ExperimentView): { subject: string; body: string } {
  const why: Record<EndReason, string> = {
    task_count: `its ${experiment.max_tasks} tasks have all ended`,
    cost_cap: `it reached its cost cap of $${experiment.cost_cap_usd}`,
    start_failures: `arm ${armLabel(experiment.stopped_arm ?? 'a')} failed on start too often and was stopped`,
    stopped: 'the CEO stopped it',
  };
  const arm = (key: Arm) =>
    `${armLabel(key)} (${describeArm(experiment.arms[key])}): ${experiment.arms[key].tasks} tasks`;
  return {
    subject: `Experiment on the ${experiment.role} role ended: ${experiment.verdict.better ? `${armLabel(experiment.verdict.better)} is better` : 'no difference yet'}`,
    body: [
      `The experiment ended because ${why[experiment.ended_reason ?? 'stopped']}.`,
      `${arm('a')}; ${arm('b')}.`,
      `Verdict: ${experiment.verdict.text}.`,
      experiment.verdict.better
        ? `Adopt arm ${armLabel(experiment.verdict.better)} on the Workforce page to route the ${experiment.role} role there; nothing switches by itself.`
        : 'Nothing switches by itself; the record stays on the Workforce page.',
    ].join('\n'),
  };
}
