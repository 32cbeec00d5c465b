/**
 * Who runs what, as a pure rule over the dispatcher's view of the tasks and the roster (reference
 * A §4 and §11). Work already in hand comes first — an owner not running is respawned (a PM only
 * when its subtasks are done), a review claim's claimant, a PM owning a task awaiting its review —
 * then new work: a pending task goes to its assignee, else a cell's code task to an idle developer
 * of the cell (assigned to it by the dispatcher) and any other task to the cell PM or, outside the
 * cells, the main PM (pre-claimed for it, as the original did); the review queues go to the cell's
 * QA, the cell's documenter, and the PR-review gate (the cell's reviewers with the org-wide overflow,
 * or the root gate's reviewer). An agent gets at most one task per pass, never while it runs, and a
 * developer, QA or documenter never gets a task while it holds another.
 */
import {
  BUILDING_STATES,
  isCellTeam,
  isSingleActiveRole,
  PM_ROLES,
  type Role,
  stateCategory,
  type TaskStatus,
} from '../lifecycle/index.js';

export interface DispatchTask {
  id: string;
  title: string;
  status: TaskStatus;
  team: string;
  taskType: string;
  complexity: string;
  priority: number;
  assignedTo: string | null;
  activeClaimantId: string | null;
  parentTaskId: string | null;
  projectId: string | null;
  /** Who submitted the work under review (the `original_developer` marker). */
  author: string | null;
  openDependencies: number;
  sequenceHeld: boolean;
  subtasks: number;
  openSubtasks: number;
}

export interface DispatchAgent {
  id: string;
  slug: string;
  role: Role;
  team: string | null;
  model?: string | null;
}

/** What the routing reads besides the tasks. */
export interface RoutingState {
  /** The roster (retired agents left out). */
  agents: readonly DispatchAgent[];
  isRunning(agentId: string): boolean;
  /** Held back for now: stopped by the CEO, or its last spawn failed. */
  isUnavailable(agentId: string): boolean;
  /** The rate-limited provider the agent waits for (system module's parking), if any. */
  parkedOn?(agentId: string): string | undefined;
  /** Per single-active agent, the tasks it holds (owned in a busy state, or claimed). */
  busyWith: ReadonlyMap<string, ReadonlySet<string>>;
  /** Tasks the respawn breaker gave up on. */
  stalled: ReadonlySet<string>;
  /** Projects over their monthly budget: no work is started on them. */
  overBudgetProjects: ReadonlySet<string>;
  /** Slug of the PR reviewer who keeps the root gate (reference A: pr-reviewer-1). */
  rootGateReviewer: string;
}

/**
 * What an agent is spawned for:
 * - `owner`: work it already owns (respawned), `closure`: its subtasks are all done;
 * - `develop`, `plan`: new work; `qa`, `docs`, `pr_gate`, `pm_review`: a review queue.
 */
export type WorkKind = 'owner' | 'closure' | 'develop' | 'plan' | 'qa' | 'docs' | 'pr_gate' | 'pm_review';

/** What the dispatcher does before the spawn: nothing, assign the task, claim it for the agent, or hand it to its review PM. */
export type Preparation = 'none' | 'assign' | 'claim' | 'assign_review_pm';

export interface Route {
  task: DispatchTask;
  agent: DispatchAgent;
  kind: WorkKind;
  prepare: Preparation;
}

export interface Skip {
  task_id: string;
  reason: string;
}

/** Roles that are people or the server, never an agent process. */
const NOT_SPAWNABLE: ReadonlySet<Role> = new Set(['ceo', 'system', 'prompter', 'secretary']);
const DEVELOPER_TYPES = ['code', 'design'];
const REVIEW_QUEUES: Partial<Record<TaskStatus, { role: Role; kind: WorkKind }>> = {
  awaiting_qa: { role: 'qa', kind: 'qa' },
  awaiting_documentation: { role: 'documenter', kind: 'docs' },
  awaiting_pr_review: { role: 'pr_reviewer', kind: 'pr_gate' },
};

export const isPm = (role: Role): boolean => (PM_ROLES as readonly string[]).includes(role);
export const isSpawnable = (role: Role): boolean => !NOT_SPAWNABLE.has(role);

type Outcome = Route | Skip;

class Router {
  readonly routes: Route[] = [];
  readonly skipped: Skip[] = [];
  private readonly used = new Set<string>();
  private readonly byId: Map<string, DispatchAgent>;

  constructor(private readonly state: RoutingState) {
    this.byId = new Map(state.agents.map((agent) => [agent.id, agent]));
  }

  add(outcome: Outcome | null): void {
    if (!outcome) return;
    if ('reason' in outcome) {
      this.skipped.push(outcome);
      return;
    }
    this.used.add(outcome.agent.id);
    this.routes.push(outcome);
  }

  /** Why `agent` cannot take `task` now, or null when it can. */
  unavailability(agent: DispatchAgent, task: DispatchTask): string | null {
    if (!isSpawnable(agent.role)) return `${agent.slug} is not an agent Gaffer runs`;
    if (this.state.isRunning(agent.id)) return `${agent.slug} is running`;
    if (this.used.has(agent.id)) return `${agent.slug} was given other work in this pass`;
    if (this.state.isUnavailable(agent.id)) return `${agent.slug} is held back`;
    const parkedOn = this.state.parkedOn?.(agent.id);
    if (parkedOn) return `${agent.slug} waits for rate-limited provider ${parkedOn}`;
    if (isSingleActiveRole(agent.role)) {
      const held = [...(this.state.busyWith.get(agent.id) ?? [])].filter((id) => id !== task.id);
      if (held.length > 0) return `${agent.slug} holds another task`;
    }
    return null;
  }

  agent(id: string | null): DispatchAgent | undefined {
    return id ? this.byId.get(id) : undefined;
  }

  /** The first of `candidates` free to take `task`, or a skip naming why none is. */
  pick(
    task: DispatchTask,
    candidates: DispatchAgent[],
    kind: WorkKind,
    prepare: Preparation,
    who: string,
  ): Outcome {
    if (candidates.length === 0) return skip(task, `no ${who} on the roster`);
    const eligible = candidates.filter((agent) => agent.id !== task.author);
    if (eligible.length === 0) return skip(task, `no ${who} but the work’s author (self-review)`);
    for (const agent of eligible) {
      if (!this.unavailability(agent, task)) return { task, agent, kind, prepare };
    }
    return skip(task, `no ${who} is free`);
  }

  /** Respawn the agent that already holds the task. */
  respawn(task: DispatchTask, ownerId: string | null, kind: WorkKind): Outcome {
    const owner = this.agent(ownerId);
    if (!owner) return skip(task, ownerId ? 'its owner is not on the roster' : 'it has no owner');
    const why = this.unavailability(owner, task);
    return why ? skip(task, why) : { task, agent: owner, kind, prepare: 'none' };
  }

  members(role: Role, team?: string | null): DispatchAgent[] {
    return this.state.agents.filter(
      (agent) => agent.role === role && (team === undefined || agent.team === team),
    );
  }
}

const skip = (task: DispatchTask, reason: string): Skip => ({ task_id: task.id, reason });

/** Work in hand: owned, claimed for review, or owned by a PM awaiting its review. Null: not in hand. */
function inHand(router: Router, task: DispatchTask, state: RoutingState): Outcome | null {
  if (task.status === 'paused') {
    const owner = router.agent(task.assignedTo);
    if (owner && isPm(owner.role) && task.subtasks > 0 && task.openSubtasks === 0) {
      return router.respawn(task, owner.id, 'closure');
    }
    return skip(task, 'paused');
  }
  if (stateCategory(task.status) === 'active') {
    const ownerId = task.activeClaimantId ?? task.assignedTo;
    const owner = router.agent(ownerId);
    if (
      BUILDING_STATES.includes(task.status) &&
      task.projectId &&
      state.overBudgetProjects.has(task.projectId)
    ) {
      return skip(task, 'its project is over its monthly budget');
    }
    if (task.status === 'needs_revision' && task.sequenceHeld)
      return skip(task, 'a lower-sequence sibling is open');
    if (owner && isPm(owner.role) && task.subtasks > 0) {
      if (task.openSubtasks > 0) return skip(task, 'waiting for its subtasks');
      return router.respawn(task, owner.id, 'closure');
    }
    if (task.status === 'needs_revision' && !ownerId) return skip(task, 'a revision without an author');
    return router.respawn(task, ownerId, 'owner');
  }
  const queue = REVIEW_QUEUES[task.status];
  if (queue && task.activeClaimantId) return router.respawn(task, task.activeClaimantId, queue.kind);
  if (task.status === 'awaiting_pm_review' && task.assignedTo) {
    return router.respawn(task, task.assignedTo, 'pm_review');
  }
  return null;
}

/** New work: the pool (pending) and the unclaimed review queues. */
function newWork(router: Router, task: DispatchTask, state: RoutingState): Outcome {
  if (task.status === 'pending') return pendingWork(router, task, state);
  const queue = REVIEW_QUEUES[task.status];
  if (queue?.kind === 'pr_gate') return prGate(router, task, state);
  if (queue) {
    return router.pick(
      task,
      router.members(queue.role, task.team),
      queue.kind,
      'none',
      `${queue.role} of ${task.team}`,
    );
  }
  if (task.status === 'awaiting_pm_review') {
    const pms = isCellTeam(task.team) ? router.members('cell_pm', task.team) : [];
    return router.pick(
      task,
      [...pms, ...router.members('main_pm')].slice(0, 1),
      'pm_review',
      'assign_review_pm',
      'reviewing PM',
    );
  }
  return skip(task, `nothing to dispatch in ${task.status}`);
}

function pendingWork(router: Router, task: DispatchTask, state: RoutingState): Outcome {
  if (task.openDependencies > 0) return skip(task, `${task.openDependencies} dependencies are open`);
  if (task.sequenceHeld) return skip(task, 'a lower-sequence sibling is open');
  if (task.projectId && state.overBudgetProjects.has(task.projectId)) {
    return skip(task, 'its project is over its monthly budget');
  }
  if (task.assignedTo) {
    const owner = router.agent(task.assignedTo);
    const kind: WorkKind =
      owner && isPm(owner.role) ? 'plan' : owner?.role === 'developer' ? 'develop' : 'owner';
    return router.respawn(task, task.assignedTo, kind);
  }
  if (isCellTeam(task.team)) {
    const forDeveloper =
      DEVELOPER_TYPES.includes(task.taskType) && task.complexity !== 'high' && task.subtasks === 0;
    if (forDeveloper) {
      return router.pick(
        task,
        router.members('developer', task.team),
        'develop',
        'assign',
        `developer of ${task.team}`,
      );
    }
    return router.pick(task, router.members('cell_pm', task.team), 'plan', 'claim', `PM of ${task.team}`);
  }
  if (task.team === 'main_pm')
    return router.pick(task, router.members('main_pm'), 'plan', 'claim', 'main PM');
  return skip(task, `tasks of team ${task.team} are not dispatched`);
}

/** A cell's assembled PR goes to the cell's reviewers then the org-wide overflow; a root's to the root gate's reviewer. */
function prGate(router: Router, task: DispatchTask, state: RoutingState): Outcome {
  const orgWide = router.members('pr_reviewer').filter((agent) => !agent.team || !isCellTeam(agent.team));
  const gateKeeper = orgWide.filter((agent) => agent.slug === state.rootGateReviewer);
  const overflow = orgWide.filter((agent) => agent.slug !== state.rootGateReviewer);
  const candidates = isCellTeam(task.team)
    ? [...router.members('pr_reviewer', task.team), ...overflow]
    : gateKeeper.length > 0
      ? gateKeeper
      : overflow;
  return router.pick(task, candidates, 'pr_gate', 'none', `PR reviewer for ${task.team}`);
}

/**
 * The routes of one pass, for `tasks` in urgency order (highest priority first): work in hand
 * first, then new work; and why each other task was left alone.
 */
export function routeWork(
  tasks: readonly DispatchTask[],
  state: RoutingState,
): { routes: Route[]; skipped: Skip[] } {
  const router = new Router(state);
  const open = tasks.filter((task) => {
    if (!state.stalled.has(task.id)) return true;
    router.add(skip(task, 'stalled: the respawn breaker tripped'));
    return false;
  });
  const fresh: DispatchTask[] = [];
  for (const task of open) {
    const outcome = inHand(router, task, state);
    if (outcome) router.add(outcome);
    else fresh.push(task);
  }
  for (const task of fresh) router.add(newWork(router, task, state));
  return { routes: router.routes, skipped: router.skipped };
}
