/**
 * The dispatcher routing ready work to idle agents through the real app, with real agent
 * processes: a cell's pending code task goes to an idle developer of that cell, spawned in the
 * task's worktree; a developer holding a task gets nothing new; the review queues go to the cell's
 * QA, documenter and PR reviewer, the root gate to its reviewer, a task awaiting PM review to the
 * cell PM (assigned to it), a planning task to the cell PM or the main PM (claimed for it); a task
 * event on the bus wakes the dispatcher without waiting for its interval, and a stream of wakes runs
 * a pass every quarter second at most.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PassSummary, WAKE_SPACING_MS } from '../src/modules/dispatch/index.js';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { agentRuns } from '../src/modules/runtime/schema.js';
import { LOST_RUN_AFTER_MS } from '../src/modules/runtime/supervisor.js';
import { eventually } from '../src/modules/runtime/test-fake-agents.js';
import { tasks } from '../src/modules/tasks/schema.js';
import { json } from './support/app.js';

let t: DispatchTestApp;

beforeAll(async () => {
  t = await startDispatchApp();
});
afterEach(() => t.reset());
afterAll(() => t?.close());

const running = () => t.runtime.supervisor.list();
const runOf = (slug: string) => running().find((run) => run.agentSlug === slug);
const lastPass = async () =>
  json<{ last_pass: PassSummary; wake_count: number }>(
    await t.app.inject({ method: 'GET', url: '/api/orchestrator/dispatcher', headers: t.ceoHeaders }),
  );

describe('pending work', () => {
  it('spawns an idle developer of the task’s cell in the task’s worktree, assigned, with a prompt naming the task', async () => {
    const task = await t.insertTask({
      team: 'frontend',
      projectId: t.project.id,
      title: 'Add the login form',
    });
    expect(await t.runLoop('dispatch.tick')).toBe('succeeded');

    expect(running().map((run) => run.agentSlug)).toEqual(['fe-dev-1']);
    expect(runOf('fe-dev-1')).toMatchObject({ taskId: task.id, runtime: 'process', provider: 'custom' });
    await eventually(() => t.reports('fe-dev-1').length > 0);
    const report = t.reports('fe-dev-1').at(-1)!;
    expect(report.cwd).toBe(
      `${t.platform.config.dataDir}/workspaces/fe-dev-1/shop/tasks/${task.id.slice(0, 8)}`,
    );
    // Its token is the gateway door's to add: it never enters the sandbox.
    expect(report).toMatchObject({ task: task.id, agent: t.idOf('fe-dev-1'), token: false });
    expect(report.prompt).toContain(task.id);
    expect(report.prompt).toContain('i_will_work_on');
    expect((await t.task(task.id)).assignedTo).toBe(t.idOf('fe-dev-1'));
    // The assignment is a task change, which wakes the dispatcher again: that pass spawns nothing more.
    await eventually(async () => (await lastPass()).wake_count > 0);
    expect(running().map((run) => run.agentSlug)).toEqual(['fe-dev-1']);
  });

  it('gives nothing new to a developer who holds a task, and the next free developer gets it', async () => {
    const held = await t.insertTask({ team: 'frontend', status: 'blocked', assignedTo: t.idOf('fe-dev-1') });
    const paused = await t.insertTask({
      team: 'frontend',
      status: 'paused',
      assignedTo: t.idOf('fe-dev-2'),
      activeClaimantId: t.idOf('fe-dev-2'),
    });
    const fresh = await t.insertTask({ team: 'frontend', title: 'Dark mode' });
    await t.runLoop('dispatch.tick');

    expect(running()).toEqual([]);
    const { last_pass } = await lastPass();
    expect(last_pass.spawned).toEqual([]);
    expect(last_pass.skipped).toContainEqual({
      task_id: fresh.id,
      reason: 'no developer of frontend is free',
    });
    expect((await t.task(fresh.id)).assignedTo).toBeNull();

    await t.platform.database.db
      .update(tasks)
      .set({ status: 'cancelled', activeClaimantId: null })
      .where(eq(tasks.id, paused.id));
    await t.runLoop('dispatch.tick');
    expect(running().map((run) => [run.agentSlug, run.taskId])).toEqual([['fe-dev-2', fresh.id]]);
    expect((await t.task(held.id)).status).toBe('blocked');
  });
});

describe('one run per agent in the cluster', () => {
  it('spawns nothing for an agent whose run another replica vouches for, until that run is lost', async () => {
    const owned = await t.insertTask({
      team: 'frontend',
      status: 'in_progress',
      assignedTo: t.idOf('fe-dev-1'),
      activeClaimantId: t.idOf('fe-dev-1'),
    });
    // A run of fe-dev-1 that another replica started and still vouches for (this one does not run it).
    const elsewhere = randomUUID();
    await t.platform.database.db.insert(agentRuns).values({
      id: elsewhere,
      agentId: t.idOf('fe-dev-1'),
      taskId: owned.id,
      runtime: 'process',
      provider: 'custom',
      startedAt: new Date(),
      seenAt: new Date(),
    });
    await t.runLoop('dispatch.tick');
    expect(running()).toEqual([]);
    expect((await lastPass()).last_pass.skipped).toContainEqual({
      task_id: owned.id,
      reason: 'fe-dev-1 is running',
    });

    // Its replica stopped vouching for it long enough ago: the run is lost, and fe-dev-1 is spawned here.
    await t.platform.database.db
      .update(agentRuns)
      .set({
        startedAt: new Date(Date.now() - 2 * LOST_RUN_AFTER_MS),
        seenAt: new Date(Date.now() - LOST_RUN_AFTER_MS - 1000),
      })
      .where(eq(agentRuns.id, elsewhere));
    await t.runLoop('dispatch.tick');
    expect(runOf('fe-dev-1')).toMatchObject({ taskId: owned.id });
  });
});

describe('review queues and planning', () => {
  it('routes each queue to its role in the task’s cell, and planning to the PMs', async () => {
    const dev = t.idOf('be-dev-1');
    const qa = await t.insertTask({
      team: 'backend',
      status: 'awaiting_qa',
      markers: { original_developer: dev },
    });
    const docs = await t.insertTask({ team: 'ux_ui', status: 'awaiting_documentation' });
    const cellGate = await t.insertTask({ team: 'frontend', status: 'awaiting_pr_review' });
    const rootGate = await t.insertTask({
      team: 'main_pm',
      taskType: 'planning',
      status: 'awaiting_pr_review',
    });
    const pmReview = await t.insertTask({ team: 'backend', status: 'awaiting_pm_review' });
    const cellPlan = await t.insertTask({ team: 'ux_ui', taskType: 'planning' });
    const rootPlan = await t.insertTask({ team: 'main_pm', taskType: 'planning' });
    await t.runLoop('dispatch.tick');

    const spawned = Object.fromEntries(running().map((run) => [run.agentSlug, run.taskId]));
    expect(spawned).toEqual({
      'be-qa': qa.id,
      'ux-doc': docs.id,
      'fe-pr-reviewer': cellGate.id,
      'pr-reviewer-1': rootGate.id,
      'be-pm': pmReview.id,
      'ux-pm': cellPlan.id,
      'main-pm': rootPlan.id,
    });
    // The review PM is handed the task; the PMs' planning tasks are claimed for them.
    expect(await t.task(pmReview.id)).toMatchObject({
      assignedTo: t.idOf('be-pm'),
      activeClaimantId: t.idOf('be-pm'),
    });
    expect(await t.task(cellPlan.id)).toMatchObject({ status: 'claimed', assignedTo: t.idOf('ux-pm') });
    expect(await t.task(rootPlan.id)).toMatchObject({ status: 'claimed', assignedTo: t.idOf('main-pm') });
    // Reviewers are spawned without a claim: they claim through their own verb.
    expect(await t.task(qa.id)).toMatchObject({ status: 'awaiting_qa', activeClaimantId: null });
    await eventually(() => t.reports('be-qa').length > 0 && t.reports('pr-reviewer-1').length > 0);
    expect(t.reports('be-qa').at(-1)!.prompt).toContain('claim_review');
    expect(t.reports('pr-reviewer-1').at(-1)!.prompt).toContain('claim_gate_review');
  });

  it('never gives a reviewer its own work', async () => {
    const qa = t.idOf('fe-qa');
    const task = await t.insertTask({
      team: 'frontend',
      status: 'awaiting_qa',
      markers: { original_developer: qa },
    });
    await t.runLoop('dispatch.tick');
    expect(running().filter((run) => run.taskId === task.id)).toEqual([]);
    expect((await lastPass()).last_pass.skipped).toContainEqual({
      task_id: task.id,
      reason: 'no qa of frontend but the work’s author (self-review)',
    });
  });
});

describe('waking', () => {
  it('runs a pass when a task event arrives on the bus, without waiting for the interval', async () => {
    const before = (await lastPass()).wake_count;
    const task = await t.insertTask({ team: 'backend', title: 'Rate limiting' });
    const publish = t.platform.bus.publish.bind(t.platform.bus) as (
      type: string,
      data: unknown,
    ) => Promise<unknown>;
    await publish('TASK_CREATED', { task_id: task.id });
    await eventually(() => runOf('be-dev-1')?.taskId === task.id);
    expect((await lastPass()).wake_count).toBeGreaterThan(before);
  });

  it('runs a stream of wakes as a pass every quarter second at most, not back to back', async () => {
    const { dispatcher } = t.dispatch;
    await dispatcher.idle();
    const before = (await dispatcher.state()).passes;
    const started = performance.now();
    let wakes = 0;
    while (performance.now() - started < 1000) {
      dispatcher.wake();
      wakes += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await dispatcher.idle();
    const elapsed = performance.now() - started;
    const passes = (await dispatcher.state()).passes - before;
    // The first wake runs at once; each later pass waits WAKE_SPACING_MS after the one before began.
    expect(passes).toBeGreaterThanOrEqual(2);
    expect(passes).toBeLessThanOrEqual(Math.floor(elapsed / WAKE_SPACING_MS) + 1);
    expect(wakes).toBeGreaterThan(passes * 5);
  });
});
