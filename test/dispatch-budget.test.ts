/**
 * The usage ledger and the budget sweep through the real app, with real agent processes: usage is
 * recorded and summed per task and per project-month (bad input refused); a task over its
 * `budget_usd` has its agent stopped, is blocked with a reason naming the budget and the CEO is
 * alerted — once per breach, even across sweeps and an unblock — and a PM's unblock restores it;
 * a project over its monthly budget has its work blocked and its agents stopped, the CEO alerted
 * once, and the dispatcher starts no new work on it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { projects } from '../src/modules/projects/schema.js';
import { eventually, isAlive } from '../src/modules/runtime/test-fake-agents.js';
import { fakeClock } from '../src/platform/clock.js';
import { AppError } from '../src/platform/http/errors.js';
import { json } from './support/app.js';

const clock = fakeClock(new Date('2026-03-20T10:00:00.000Z'));
let t: DispatchTestApp;

beforeAll(async () => {
  t = await startDispatchApp({ clock });
});
afterEach(() => t.reset());
afterAll(() => t?.close());

const running = () => t.runtime.supervisor.list();
const claimedBy = (slug: string, team: string, fields: Parameters<DispatchTestApp['insertTask']>[0] = {}) =>
  t.insertTask({
    team,
    status: 'in_progress',
    assignedTo: t.idOf(slug),
    claimedBy: t.idOf(slug),
    activeClaimantId: t.idOf(slug),
    claimedAt: clock.now(),
    lastHeartbeatAt: clock.now(),
    ...fields,
  });
const spend = (taskId: string, cost: number, at?: Date) =>
  t.usage.service.record({
    agent_id: t.idOf('be-dev-1'),
    task_id: taskId,
    provider: 'claude',
    model: 'sonnet',
    input_tokens: 1000,
    output_tokens: 200,
    cost_usd: cost,
    ...(at ? { at } : {}),
  });
const alerts = async (subject: string) =>
  json<{ notifications: { subject: string; type: string }[] }>(
    await t.app.inject({ method: 'GET', url: '/api/notifications?limit=100', headers: t.ceoHeaders }),
  ).notifications.filter((n) => n.type === 'alert' && n.subject.includes(subject));

describe('the usage ledger', () => {
  it('records usage, takes the project from the task, and sums per task and per project-month', async () => {
    const task = await t.insertTask({ projectId: t.project.id });
    const recorded = await spend(task.id, 1.25);
    expect(recorded).toMatchObject({
      projectId: t.project.id,
      taskId: task.id,
      costUsd: 1.25,
      inputTokens: 1000,
    });
    await spend(task.id, 0.5);
    await spend(task.id, 7, new Date('2026-02-28T23:59:59.000Z')); // last month
    expect(await t.usage.service.taskSpend(task.id)).toBeCloseTo(8.75);
    expect(await t.usage.service.projectMonthSpend(t.project.id)).toBeCloseTo(1.75);
    expect(
      await t.usage.service.projectMonthSpend(t.project.id, new Date('2026-02-01T00:00:00Z')),
    ).toBeCloseTo(7);
    expect(await t.usage.service.taskSpend(randomUUID())).toBe(0);
  });

  it('refuses bad usage with field details, and a reference to nothing', async () => {
    const refusal = await t.usage.service
      .record({ provider: ' ', input_tokens: -1, output_tokens: 1.5, cost_usd: Number.NaN, task_id: 'abc' })
      .catch((error: AppError) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 422, code: 'validation_failed' });
    expect((refusal as AppError).details).toEqual(
      expect.arrayContaining(
        ['task_id', 'provider', 'input_tokens', 'output_tokens', 'cost_usd'].map((field) =>
          expect.objectContaining({ field }),
        ),
      ),
    );
    const unknown = await t.usage.service
      .record({
        agent_id: randomUUID(),
        provider: 'claude',
        input_tokens: 1,
        output_tokens: 1,
        cost_usd: 0.1,
      })
      .catch((error: AppError) => error);
    expect(unknown).toMatchObject({ statusCode: 422, code: 'unknown_reference' });
  });
});

describe('a task over its budget', () => {
  it('has its agent stopped, is blocked naming the budget, the CEO alerted once; an unblock restores it', async () => {
    const task = await claimedBy('be-dev-1', 'backend', { budgetUsd: 5, title: 'Costly task' });
    await t.runLoop('dispatch.tick');
    const run = running().find((r) => r.agentSlug === 'be-dev-1')!;
    expect(run.taskId).toBe(task.id);

    await spend(task.id, 3);
    await t.runLoop('dispatch.budget');
    expect(isAlive(run.pid!)).toBe(true);
    expect((await t.task(task.id)).status).toBe('in_progress');

    await spend(task.id, 2.5);
    expect(await t.runLoop('dispatch.budget')).toBe('succeeded');
    expect(isAlive(run.pid!)).toBe(false);
    const blocked = await t.task(task.id);
    expect(blocked).toMatchObject({ status: 'blocked', assignedTo: t.idOf('be-dev-1') });
    expect(blocked.markers.budget_blocked).toMatchObject({ kind: 'task', cap_usd: 5, spent_usd: 5.5 });
    const events = json<{ events: { action: string; reason: string | null }[] }>(
      await t.app.inject({ method: 'GET', url: `/api/tasks/${task.id}/events`, headers: t.ceoHeaders }),
    ).events;
    expect(events.at(-1)).toMatchObject({
      action: 'admin_override',
      reason: 'budget exceeded: task budget $5.00, spent $5.50',
    });
    expect(await alerts('Budget exceeded: Costly task')).toHaveLength(1);

    // Not respawned, and a second sweep does not alert again.
    await t.runLoop('dispatch.tick');
    expect(running()).toEqual([]);
    await t.runLoop('dispatch.budget');
    expect(await alerts('Budget exceeded: Costly task')).toHaveLength(1);

    // The PM's unblock restores the task where it was, owner and all; the same breach is not acted on twice.
    const pm = { id: t.idOf('be-pm'), slug: 'be-pm', role: 'cell_pm' as const, team: 'backend' };
    await t.modules.tasks.service.transition(task.id, 'unblock', pm, { reason: 'budget raised by the CEO' });
    expect(await t.task(task.id)).toMatchObject({ status: 'in_progress', assignedTo: t.idOf('be-dev-1') });
    await t.runLoop('dispatch.budget');
    expect((await t.task(task.id)).status).toBe('in_progress');
    expect(await alerts('Budget exceeded: Costly task')).toHaveLength(1);
  });
});

describe('a project over its monthly budget', () => {
  it('has its work blocked and agents stopped, the CEO alerted once, and no new work started on it', async () => {
    const [project] = await t.platform.database.db
      .insert(projects)
      .values({
        slug: 'store',
        name: 'Store',
        gitUrl: t.project.gitUrl,
        gitProvider: 'local',
        createdBy: 'ceo',
        monthlyBudgetUsd: 10,
      })
      .returning();
    const working = await claimedBy('fe-dev-1', 'frontend', { projectId: project!.id });
    await t.runLoop('dispatch.tick');
    const run = running().find((r) => r.agentSlug === 'fe-dev-1')!;
    expect(run.taskId).toBe(working.id);
    await eventually(() => t.reports('fe-dev-1').length > 0);

    await spend(working.id, 12);
    await t.runLoop('dispatch.budget');
    expect(isAlive(run.pid!)).toBe(false);
    expect((await t.task(working.id)).status).toBe('blocked');
    expect(await alerts('Monthly budget exceeded: store')).toHaveLength(1);

    const next = await t.insertTask({ team: 'frontend', projectId: project!.id, title: 'More work' });
    await t.runLoop('dispatch.tick');
    // (Other suites' tasks may be respawned by wakes; nothing runs on this project.)
    expect(running().filter((r) => r.taskId === next.id || r.taskId === working.id)).toEqual([]);
    const state = json<{ last_pass: { skipped: { task_id: string; reason: string }[] } }>(
      await t.app.inject({ method: 'GET', url: '/api/orchestrator/dispatcher', headers: t.ceoHeaders }),
    );
    expect(state.last_pass.skipped).toContainEqual({
      task_id: next.id,
      reason: 'its project is over its monthly budget',
    });
    await t.runLoop('dispatch.budget');
    expect(await alerts('Monthly budget exceeded: store')).toHaveLength(1);
  });
});
