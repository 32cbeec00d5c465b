/**
 * The tasks service: the one way into the task domain for routes, engines, the gateway and other
 * modules. Create, read and list; claim (atomic) and every other lifecycle transition through the
 * lifecycle tables; PATCH with CEO god mode; assign-review-pm; approve-and-start. Every change
 * writes its audit rows in the same transaction. Operations take the acting agent (`Actor`);
 * engines act as `SYSTEM_ACTOR` and pass their `source` on create.
 */
import type { Platform } from '../../platform/context.js';
import type { Identity } from '../../platform/http/auth/identity.js';
import type { AgentsService } from '../agents/index.js';
import type { LifecycleAction } from '../lifecycle/index.js';
import type { ProjectsService } from '../projects/index.js';
import { ACTIVITY_LIMITS, recentActivity, type TaskActivityView } from './activity.js';
import { actorFromIdentity } from './actor.js';
import { approveAndStart } from './approve-and-start.js';
import { CellMaps } from './cell-maps.js';
import { claimTask } from './claim.js';
import type { TaskContext } from './context.js';
import { createTask } from './create.js';
import { taskNotFound } from './errors.js';
import { listTasks, rowOfView, type TaskEventView, taskEventViews, viewsOf } from './queries.js';
import { assignReviewPm } from './review-pm.js';
import { loadTask } from './task-store.js';
import { type ActionPlan, performTransition } from './transition.js';
import type {
  Actor,
  CreateTaskInput,
  TaskListFilter,
  TaskRow,
  TransitionInput,
  UpdateTaskInput,
} from './types.js';
import { updateTask } from './update.js';
import { type TaskView, toTaskView } from './view.js';
import { loadBeating, reassignTask, recordWorkFacts, touchHeartbeat, type WorkFacts } from './work-facts.js';

export interface TasksServiceDeps {
  readonly agents: AgentsService;
  readonly projects: ProjectsService;
}

export class TasksService {
  private readonly ctx: TaskContext;
  private readonly bus: Platform['bus'];

  constructor(platform: Pick<Platform, 'database' | 'clock' | 'bus'>, deps: TasksServiceDeps) {
    this.bus = platform.bus;
    this.ctx = {
      db: platform.database.db,
      clock: platform.clock,
      agents: deps.agents,
      projects: deps.projects,
      cellMaps: new CellMaps(),
    };
  }

  /** The acting agent behind a proven identity (agents' `actorOf`: 403 `unknown_agent` / `role_mismatch`). */
  actorFor(identity: Identity): Promise<Actor> {
    return actorFromIdentity(this.ctx.agents, identity);
  }

  /** Opens a task (422 with field details when the declaration or a reference is wrong). */
  async create(input: CreateTaskInput, actor: Actor): Promise<TaskView> {
    const { row, cellProjects } = await createTask(this.ctx, input, actor);
    await this.changed(row, 'created');
    return toTaskView(row, cellProjects);
  }

  /** The task, or 404. */
  async get(id: string): Promise<TaskView> {
    const view = await this.find(id);
    if (!view) throw taskNotFound(id);
    return view;
  }

  async find(id: string): Promise<TaskView | null> {
    const row = await loadTask(this.ctx.db, id);
    return row ? (await viewsOf(this.ctx.db, this.ctx.cellMaps, [row]))[0]! : null;
  }

  /**
   * Like `find`, and when `agentId` holds the task's claim its heartbeat is refreshed in the same
   * statement (the gateway's read of the task an agent calls a verb about).
   */
  async findBeating(id: string, agentId: string): Promise<TaskView | null> {
    const row = await loadBeating(this.ctx, id, agentId);
    return row ? (await viewsOf(this.ctx.db, this.ctx.cellMaps, [row]))[0]! : null;
  }

  list(filter: TaskListFilter = {}): Promise<{ tasks: TaskView[]; next_cursor: string | null }> {
    return listTasks(this.ctx.db, this.ctx.cellMaps, this.ctx.agents, filter);
  }

  /** The newest audit rows across all tasks, with titles and sources (`before`: an event id; `since`: a time). */
  activity(
    limit: number = ACTIVITY_LIMITS.default,
    before?: number,
    since?: Date,
  ): Promise<TaskActivityView[]> {
    return recentActivity(this.ctx.db, limit, before, since);
  }

  /** The audit trail of a task, oldest first (404 for an unknown task). */
  async events(id: string): Promise<TaskEventView[]> {
    if (!(await loadTask(this.ctx.db, id))) throw taskNotFound(id);
    return taskEventViews(this.ctx.db, id);
  }

  /**
   * Atomic claim: exactly one of any number of concurrent claimers wins; the others get 409
   * `already_claimed`. The task is named by its id, or given as a view this service answered (then
   * an unclaimed task is claimed without a read of its own, unless it changed since).
   */
  async claim(task: string | TaskView, actor: Actor): Promise<TaskView> {
    const [id, observed] = typeof task === 'string' ? [task, undefined] : [task.id, rowOfView(task)];
    return this.view(await claimTask(this.ctx, id, actor, observed), 'claim');
  }

  /**
   * A lifecycle transition: one action, the first applicable of several (`{ oneOf }`), or a chain
   * (`{ chain }`, e.g. submit_verification then submit_qa). 403 `not_authorized`, 409
   * `invalid_state` (and the holds' own 409s) as the lifecycle tables decide. The task is named by
   * its id, or given as a view this service answered (read or written just before): then it is
   * decided on that view and written in one statement unless the task changed since.
   */
  async transition(
    task: string | TaskView,
    action: ActionPlan,
    actor: Actor,
    input: TransitionInput = {},
  ): Promise<TaskView> {
    const [id, observed] = typeof task === 'string' ? [task, undefined] : [task.id, rowOfView(task)];
    return this.view(
      await performTransition(this.ctx, id, action, actor, input, observed),
      typeof action === 'string' ? action : 'transition',
    );
  }

  /** PATCH: field edits in the caller's scope, and the CEO's audited status override. */
  async update(id: string, input: UpdateTaskInput, actor: Actor): Promise<TaskView> {
    return this.view(await updateTask(this.ctx, id, input, actor), 'update');
  }

  /** Hands an awaiting_pm_review task to its reviewing PM as owner and claimant. */
  async assignReviewPm(id: string, actor: Actor): Promise<TaskView> {
    return this.view(await assignReviewPm(this.ctx, id, actor), 'assign_review_pm');
  }

  /** The CEO confirms a pending task and hands it to the main PM. */
  async approveAndStart(id: string, notes: string, actor: Actor): Promise<TaskView> {
    return this.view(await approveAndStart(this.ctx, id, notes, actor), 'approve_and_start');
  }

  /**
   * Records facts of the work that are not transitions — plan, notes and markers (merged key by
   * key), branch, pull request — with an audit row named `audit.action`. The caller decides who may.
   */
  async recordFacts(
    id: string,
    facts: WorkFacts,
    actor: Actor,
    audit: { action: string; data?: Record<string, unknown> },
  ): Promise<TaskView> {
    return this.view(await recordWorkFacts(this.ctx, id, facts, actor, audit), audit.action);
  }

  /** Hands a claimed, in-progress, verifying or paused task to another agent (owner and claimant). */
  async reassign(id: string, toAgentId: string, actor: Actor): Promise<TaskView> {
    return this.view(await reassignTask(this.ctx, id, toAgentId, actor), 'reassign');
  }

  /** Refreshes the claim heartbeat if `agentId` holds the claim (false otherwise). */
  touchHeartbeat(id: string, agentId: string): Promise<boolean> {
    return touchHeartbeat(this.ctx, id, agentId);
  }

  /** The view of a row just changed, after announcing the change (`change` names it). */
  private async view(row: TaskRow, change: string): Promise<TaskView> {
    await this.changed(row, change);
    return (await viewsOf(this.ctx.db, this.ctx.cellMaps, [row]))[0]!;
  }

  /** Publishes TASK_CHANGED; the change is committed either way, so a bus failure is not the caller's. */
  private async changed(row: TaskRow, change: string): Promise<void> {
    const event = { task_id: row.id, status: row.status, assigned_to: row.assignedTo, change };
    await this.bus.publish('TASK_CHANGED', event).catch(() => undefined);
  }
}

export type { ActionPlan, LifecycleAction };
