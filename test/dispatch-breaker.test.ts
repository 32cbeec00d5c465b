/**
 * The respawn breaker through the real app, with a real agent that exits at once without doing
 * anything: each run's end wakes the dispatcher, which respawns the task's owner until the task has
 * made no progress across three spawns; then the task is stalled (marked, audited, on the
 * dispatcher's state, the CEO alerted) and gets no more spawns — until it progresses.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PassSummary } from '../src/modules/dispatch/index.js';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { eventually } from '../src/modules/runtime/test-fake-agents.js';
import { json } from './support/app.js';

let t: DispatchTestApp;

beforeAll(async () => {
  t = await startDispatchApp({ config: { dispatchRespawnLimit: 3 } });
});
afterEach(() => t.reset());
afterAll(() => t?.close());

interface State {
  last_pass: PassSummary;
  stalled_tasks: { task_id: string; spawns: number; reason: string }[];
}
const state = async () =>
  json<State>(
    await t.app.inject({ method: 'GET', url: '/api/orchestrator/dispatcher', headers: t.ceoHeaders }),
  );
const running = () => t.runtime.supervisor.list();

describe('the respawn breaker', () => {
  it('stalls a task after three spawns without progress, tells the CEO, and spawns nothing more for it', async () => {
    t.behave('be-dev-2', 'exit');
    const task = await t.insertTask({
      team: 'backend',
      assignedTo: t.idOf('be-dev-2'),
      title: 'Goes nowhere',
    });
    await t.runLoop('dispatch.tick');

    await eventually(async () => (await state()).stalled_tasks.some((s) => s.task_id === task.id));
    await t.dispatch.dispatcher.idle();
    expect(t.reports('be-dev-2')).toHaveLength(3);
    expect((await state()).stalled_tasks).toEqual([
      expect.objectContaining({
        task_id: task.id,
        spawns: 3,
        reason: 'breaker_tripped: 3 spawns of be-dev-2 made no progress',
      }),
    ]);
    const row = await t.task(task.id);
    expect(row.markers.stalled).toMatchObject({ reason: 'breaker_tripped', spawns: 3, agent: 'be-dev-2' });
    const events = json<{ events: { action: string; actor_role: string }[] }>(
      await t.app.inject({ method: 'GET', url: `/api/tasks/${task.id}/events`, headers: t.ceoHeaders }),
    ).events;
    expect(events.at(-1)).toMatchObject({ action: 'stalled', actor_role: 'system' });
    const notifications = json<{ notifications: { subject: string; related_task_id: string }[] }>(
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: t.ceoHeaders }),
    ).notifications.filter((n) => n.related_task_id === task.id);
    expect(notifications.map((n) => n.subject)).toEqual(['Task stalled: Goes nowhere']);

    await t.runLoop('dispatch.tick');
    expect(running()).toEqual([]);
    expect(t.reports('be-dev-2')).toHaveLength(3);
    expect((await state()).last_pass.skipped).toContainEqual({
      task_id: task.id,
      reason: 'stalled: the respawn breaker tripped',
    });
  });

  it('dispatches a stalled task again once it progresses', async () => {
    t.behave('ux-dev-2', 'exit');
    const task = await t.insertTask({ team: 'ux_ui', assignedTo: t.idOf('ux-dev-2') });
    await t.runLoop('dispatch.tick');
    await eventually(async () => (await state()).stalled_tasks.some((s) => s.task_id === task.id));
    await t.dispatch.dispatcher.idle();

    // Progress by someone other than the system: the CEO edits the task.
    t.behave('ux-dev-2', 'sleep');
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${task.id}`,
      headers: t.ceoHeaders,
      payload: { priority: 0, reason: 'try again with a clearer brief' },
    });
    expect(edited.statusCode).toBe(200);
    // The edit wakes the dispatcher by itself (a task change); a tick on top changes nothing.
    await t.runLoop('dispatch.tick');
    await eventually(() => running().some((run) => run.agentSlug === 'ux-dev-2' && run.taskId === task.id));
    expect((await state()).stalled_tasks).toEqual([]);
    expect((await t.task(task.id)).markers.stalled).toBeNull();
  });
});
