/** The routing rule: who runs what in one pass, pure. */
import { describe, expect, it } from 'vitest';
import { type DispatchAgent, type DispatchTask, type RoutingState, routeWork } from './routing.js';

const agent = (slug: string, role: DispatchAgent['role'], team: string | null): DispatchAgent => ({
  id: slug,
  slug,
  role,
  team,
});

const ROSTER = [
  agent('be-dev-1', 'developer', 'backend'),
  agent('be-dev-2', 'developer', 'backend'),
  agent('be-qa', 'qa', 'backend'),
  agent('be-pm', 'cell_pm', 'backend'),
  agent('be-doc', 'documenter', 'backend'),
  agent('be-pr-reviewer', 'pr_reviewer', 'backend'),
  agent('main-pm', 'main_pm', 'main_pm'),
  agent('cell-pr-reviewer-2', 'pr_reviewer', 'board'),
  agent('pr-reviewer-1', 'pr_reviewer', 'board'),
];

let counter = 0;
const task = (fields: Partial<DispatchTask> = {}): DispatchTask => ({
  id: `t${++counter}`,
  title: 'A task',
  status: 'pending',
  team: 'backend',
  taskType: 'code',
  complexity: 'low',
  priority: 2,
  assignedTo: null,
  activeClaimantId: null,
  parentTaskId: null,
  projectId: null,
  author: null,
  openDependencies: 0,
  sequenceHeld: false,
  subtasks: 0,
  openSubtasks: 0,
  ...fields,
});

const state = (overrides: Partial<RoutingState> = {}): RoutingState => ({
  agents: ROSTER,
  isRunning: () => false,
  isUnavailable: () => false,
  busyWith: new Map(),
  stalled: new Set(),
  overBudgetProjects: new Set(),
  rootGateReviewer: 'pr-reviewer-1',
  ...overrides,
});

const routed = (tasks: DispatchTask[], s = state()) =>
  routeWork(tasks, s).routes.map((r) => [r.task.id, r.agent.slug, r.kind, r.prepare]);

describe('routeWork', () => {
  it('gives one pending code task per free developer, assigning it', () => {
    const [a, b, c] = [task(), task(), task()];
    expect(routed([a, b, c])).toEqual([
      [a.id, 'be-dev-1', 'develop', 'assign'],
      [b.id, 'be-dev-2', 'develop', 'assign'],
    ]);
    expect(routeWork([a, b, c], state()).skipped).toEqual([
      { task_id: c.id, reason: 'no developer of backend is free' },
    ]);
  });

  it('sends planning, high-complexity and parent tasks to the cell PM, claimed; main_pm tasks to the main PM', () => {
    const plan = task({ taskType: 'planning' });
    const hard = task({ complexity: 'high' });
    const root = task({ team: 'main_pm', taskType: 'planning' });
    expect(routed([plan, hard, root])).toEqual([
      [plan.id, 'be-pm', 'plan', 'claim'],
      [root.id, 'main-pm', 'plan', 'claim'],
    ]);
  });

  it('respawns owners first, so their revisions win over new work', () => {
    const fresh = task({ priority: 0 });
    const revision = task({ status: 'needs_revision', assignedTo: 'be-dev-2', priority: 3 });
    expect(routed([fresh, revision])).toEqual([
      [revision.id, 'be-dev-2', 'owner', 'none'],
      [fresh.id, 'be-dev-1', 'develop', 'assign'],
    ]);
  });

  it('never gives a single-active agent a second task, nor a running or held-back agent anything', () => {
    const fresh = task();
    const busy = new Map([['be-dev-1', new Set(['other'])]]);
    expect(routed([fresh], state({ busyWith: busy, isRunning: (id) => id === 'be-dev-2' }))).toEqual([]);
    expect(routed([fresh], state({ isUnavailable: (id) => id === 'be-dev-1' }))).toEqual([
      [fresh.id, 'be-dev-2', 'develop', 'assign'],
    ]);
    // Its own task is no obstacle.
    const own = task({ status: 'in_progress', assignedTo: 'be-dev-1', activeClaimantId: 'be-dev-1' });
    expect(routed([own], state({ busyWith: new Map([['be-dev-1', new Set([own.id])]]) }))).toEqual([
      [own.id, 'be-dev-1', 'owner', 'none'],
    ]);
  });

  it('holds back tasks with open dependencies, a lower open sibling, a stall or a project over budget', () => {
    const tasks = [
      task({ openDependencies: 1 }),
      task({ sequenceHeld: true }),
      task({ id: 'stalled-one' }),
      task({ projectId: 'p1' }),
      task({ status: 'in_progress', assignedTo: 'be-dev-1', projectId: 'p1' }),
    ];
    const result = routeWork(
      tasks,
      state({ stalled: new Set(['stalled-one']), overBudgetProjects: new Set(['p1']) }),
    );
    expect(result.routes).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual([
      'stalled: the respawn breaker tripped',
      'its project is over its monthly budget',
      '1 dependencies are open',
      'a lower-sequence sibling is open',
      'its project is over its monthly budget',
    ]);
  });

  it('routes the review queues to the cell, the root gate to its keeper, and PM review to the cell PM', () => {
    const qa = task({ status: 'awaiting_qa', author: 'be-dev-1' });
    const doc = task({ status: 'awaiting_documentation' });
    const gate = task({ status: 'awaiting_pr_review' });
    const rootGate = task({ status: 'awaiting_pr_review', team: 'main_pm' });
    const review = task({ status: 'awaiting_pm_review' });
    expect(routed([qa, doc, gate, rootGate, review])).toEqual([
      [qa.id, 'be-qa', 'qa', 'none'],
      [doc.id, 'be-doc', 'docs', 'none'],
      [gate.id, 'be-pr-reviewer', 'pr_gate', 'none'],
      [rootGate.id, 'pr-reviewer-1', 'pr_gate', 'none'],
      [review.id, 'be-pm', 'pm_review', 'assign_review_pm'],
    ]);
  });

  it('overflows a cell gate to the org-wide reviewer, but never the root gate’s keeper', () => {
    const gate = task({ status: 'awaiting_pr_review' });
    const busy = state({ isRunning: (id) => id === 'be-pr-reviewer' });
    expect(routed([gate], busy)).toEqual([[gate.id, 'cell-pr-reviewer-2', 'pr_gate', 'none']]);
    const both = state({ isRunning: (id) => id === 'be-pr-reviewer' || id === 'cell-pr-reviewer-2' });
    expect(routed([gate], both)).toEqual([]);
  });

  it('respawns the claimant of a review in progress, and waits for a PM’s subtasks before closure', () => {
    const reviewing = task({ status: 'awaiting_qa', activeClaimantId: 'be-qa' });
    const waiting = task({ status: 'paused', assignedTo: 'be-pm', subtasks: 2, openSubtasks: 1 });
    const done = task({
      status: 'paused',
      assignedTo: 'main-pm',
      team: 'main_pm',
      subtasks: 2,
      openSubtasks: 0,
    });
    const result = routeWork([reviewing, waiting, done], state());
    expect(result.routes.map((r) => [r.task.id, r.agent.slug, r.kind])).toEqual([
      [reviewing.id, 'be-qa', 'qa'],
      [done.id, 'main-pm', 'closure'],
    ]);
    expect(result.skipped).toEqual([{ task_id: waiting.id, reason: 'paused' }]);
  });
});
