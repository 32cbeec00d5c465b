/**
 * The tasks module's outside face: the task tables, the TasksService (create, read, list, atomic
 * claim, lifecycle transitions, PATCH with CEO god mode, assign-review-pm, approve-and-start),
 * the public task view and the read-only task figures of the dashboards (`metrics`). Other modules
 * import only this file.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import type { ProductsModule } from '../products/index.js';
import type { ProjectsModule } from '../projects/index.js';
import { TaskMetrics } from './metrics.js';
import { registerTaskRoutes } from './routes.js';
import { TasksService } from './service.js';

export type { TaskActivityView } from './activity.js';
export { ActivityList } from './activity-schemas.js';
export { type BoardCaps, type BoardCardRow, type BoardFilter, boardReads } from './board-reads.js';
export { type TaskChange, taskChangesSince } from './changes.js';
export {
  budgetedTasksIn,
  claimHeartbeats,
  dispatchCandidates,
  heldTasksByAgent,
  openWithoutProgressSince,
  progressMarksOf,
  projectTasksIn,
  staleClaims,
  taskRow,
  tasksClaimedBy,
} from './dispatch-reads.js';
export type { TaskChanged } from './events.js';
export type {
  BlockedTask,
  CompletedTask,
  ProgressEvent,
  StatusCount,
  TaskBrief,
  TaskMetrics,
  TaskRoot,
} from './metrics.js';
export {
  type AuditEntry,
  auditTrailsOf,
  type OutcomeTaskRow,
  taskIdsAfter,
  tasksForOutcomes,
  taskTitleOf,
} from './outcome-reads.js';
export type { TaskEventView } from './queries.js';
export {
  ancestorsOf,
  type ChainTask,
  collisionCandidates,
  finishedTasksWithBranch,
  openBranchHolders,
  openTasksFromSource,
  parentsWithOpenChild,
  projectOfTask,
  taskCollisionSurface,
  taskCountOfProduct,
  taskCountOfProject,
  taskExists,
  taskHolding,
  taskLabels,
  taskStatusOf,
} from './reads.js';
export { ACTION_ROUTES, type ActionRoute } from './route-actions.js';
export type { AcceptanceCriterion } from './schema.js';
export { TasksService, type TasksServiceDeps } from './service.js';
export { RELEASE_PROPOSAL_SOURCE } from './sources.js';
export type { ActionPlan } from './transition.js';
export {
  type Actor,
  COMPLEXITIES,
  type Complexity,
  type CreateTaskInput,
  SYSTEM_ACTOR,
  TASK_LIMITS,
  TASK_NATURES,
  TASK_TYPES,
  type TaskListFilter,
  type TaskNature,
  type TaskRow,
  type TaskType,
  type TransitionInput,
  type UpdateTaskInput,
} from './types.js';
export { type TaskView, toTaskView } from './view.js';
export type { WorkFacts } from './work-facts.js';

export interface TasksModule extends ModuleFace {
  service: TasksService;
  /** Read-only figures for the dashboards and the cockpit. */
  metrics: TaskMetrics;
}

/** What this module is handed: the outside faces of the modules it uses. */
export interface TasksDeps {
  agents: AgentsModule;
  projects: ProjectsModule;
  products: ProductsModule;
}

export function createTasksModule({ platform, deps }: ModuleInput<TasksDeps>): TasksModule {
  const service = new TasksService(platform, {
    agents: deps.agents.service,
    projects: deps.projects.service,
  });
  return {
    service,
    metrics: new TaskMetrics(platform.database.db),
    registerRoutes: (app) => registerTaskRoutes(app, service),
  };
}
/** The task's HTTP shapes, for routes of other modules that act on a task (approve-and-merge). */
export { TaskIdParams, TaskView as TaskViewSchema } from './api-schemas.js';
