/**
 * The stale-claim reaper through the real app on a fake clock: a claim whose heartbeat is older
 * than the timeout goes back to pending with its owner kept (audited as the system's release, the
 * CEO told), a fresh one is left alone, an agent running on a stale claim is stopped (and the
 * dispatcher respawns the owner), and under a `dispatch` pause it still reaps.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { eventually, isAlive } from '../src/modules/runtime/test-fake-agents.js';
import { fakeClock } from '../src/platform/clock.js';
import { json } from './support/app.js';

const clock = fakeClock(new Date('2026-03-02T09:00:00.000Z'));
const TIMEOUT_S = 600;
let t: DispatchTestApp;

beforeAll(async () => {
  t = await startDispatchApp({ clock, config: { staleClaimSeconds: TIMEOUT_S } });
});
afterEach(async () => {
  await t.app.inject({ method: 'DELETE', url: '/api/maintenance-pause/dispatch', headers: t.ceoHeaders });
  await t.reset();
});
afterAll(() => t?.close());

const running = () => t.runtime.supervisor.list();
const claimedBy = (slug: string, team = 'backend') =>
  t.insertTask({
    team,
    status: 'in_progress',
    assignedTo: t.idOf(slug),
    claimedBy: t.idOf(slug),
    activeClaimantId: t.idOf(slug),
    claimedAt: clock.now(),
    lastHeartbeatAt: clock.now(),
  });
const ceoNotifications = async () =>
  json<{ notifications: { subject: string; related_task_id: string | null; type: string }[] }>(
    await t.app.inject({ method: 'GET', url: '/api/notifications', headers: t.ceoHeaders }),
  ).notifications;
const lastEvent = async (taskId: string) =>
  json<{ events: { action: string; actor_role: string; reason: string | null }[] }>(
    await t.app.inject({ method: 'GET', url: `/api/tasks/${taskId}/events`, headers: t.ceoHeaders }),
  ).events.at(-1);

describe('the stale-claim reaper', () => {
  it('releases a claim whose heartbeat is older than the timeout, owner kept, and leaves a fresh one', async () => {
    const stale = await claimedBy('be-dev-2');
    clock.advance((TIMEOUT_S - 60) * 1000);
    const fresh = await claimedBy('fe-dev-2', 'frontend');
    clock.advance(61 * 1000);
    expect(await t.runLoop('dispatch.reaper')).toBe('succeeded');

    expect(await t.task(stale.id)).toMatchObject({
      status: 'pending',
      assignedTo: t.idOf('be-dev-2'),
      activeClaimantId: null,
    });
    expect(await lastEvent(stale.id)).toMatchObject({
      action: 'release',
      actor_role: 'system',
      reason: expect.stringContaining(`timeout ${TIMEOUT_S} s`),
    });
    expect((await t.task(fresh.id)).status).toBe('in_progress');
    expect(await ceoNotifications()).toContainEqual(
      expect.objectContaining({
        type: 'alert',
        related_task_id: stale.id,
        subject: expect.stringContaining('Stale claim'),
      }),
    );
  });

  it('stops an agent whose claim went stale; the dispatcher then respawns the owner', async () => {
    const task = await claimedBy('be-dev-1');
    await t.runLoop('dispatch.tick');
    const first = running().find((run) => run.agentSlug === 'be-dev-1')!;
    expect(first.taskId).toBe(task.id);

    clock.advance((TIMEOUT_S + 1) * 1000);
    await t.runLoop('dispatch.reaper');
    expect(isAlive(first.pid!)).toBe(false);
    expect(await t.task(task.id)).toMatchObject({ status: 'pending', assignedTo: t.idOf('be-dev-1') });
    await eventually(() =>
      running().some((run) => run.agentSlug === 'be-dev-1' && run.runId !== first.runId),
    );
    expect(running().find((run) => run.agentSlug === 'be-dev-1')?.taskId).toBe(task.id);
  });

  it('spares an agent respawned within the timeout even when the claim’s heartbeat is old', async () => {
    const task = await claimedBy('ux-dev-1', 'ux_ui');
    clock.advance((TIMEOUT_S + 1) * 1000);
    await t.runLoop('dispatch.tick'); // respawns the owner now
    const run = running().find((r) => r.agentSlug === 'ux-dev-1')!;
    await t.runLoop('dispatch.reaper');
    expect(isAlive(run.pid!)).toBe(true);
    expect((await t.task(task.id)).status).toBe('in_progress');
  });

  it('still reaps under a dispatch pause (the owner is kept; nothing is respawned until it lifts)', async () => {
    const paused = await t.app.inject({
      method: 'POST',
      url: '/api/maintenance-pause/dispatch',
      headers: t.ceoHeaders,
      payload: { mode: 'drain' },
    });
    expect(paused.statusCode).toBe(200);
    const stale = await claimedBy('fe-dev-1', 'frontend');
    clock.advance((TIMEOUT_S + 1) * 1000);
    expect(await t.runLoop('dispatch.reaper')).toBe('succeeded');
    expect(await t.task(stale.id)).toMatchObject({ status: 'pending', assignedTo: t.idOf('fe-dev-1') });
    expect(await t.runLoop('dispatch.tick')).toBe('held');
    expect(running()).toEqual([]);
  });
});
