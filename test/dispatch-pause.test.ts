/**
 * The `dispatch` maintenance pause through the real app, with real agent processes. Drain: the
 * running agent keeps running, nothing new is spawned (not by the loop, not by hand), and resuming
 * dispatches the waiting work at once. Kill: the running agent — one that ignores SIGTERM — is
 * stopped now (SIGTERM, the grace, SIGKILL) and its claim goes back to pending with its owner kept.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { agentRuns } from '../src/modules/runtime/schema.js';
import { eventually, isAlive } from '../src/modules/runtime/test-fake-agents.js';
import { json } from './support/app.js';

let t: DispatchTestApp;

beforeAll(async () => {
  t = await startDispatchApp();
});
afterEach(async () => {
  await t.app.inject({ method: 'DELETE', url: '/api/maintenance-pause/dispatch', headers: t.ceoHeaders });
  await t.reset();
});
afterAll(() => t?.close());

const running = () => t.runtime.supervisor.list();
const pause = (mode: 'drain' | 'kill') =>
  t.app.inject({
    method: 'POST',
    url: '/api/maintenance-pause/dispatch',
    headers: t.ceoHeaders,
    payload: { mode, reason: 'deploying' },
  });

/** A task in progress, claimed by the agent (as its i_will_work_on would leave it). */
const claimedBy = (slug: string, team: string) => {
  const now = t.platform.clock.now();
  return t.insertTask({
    team,
    status: 'in_progress',
    assignedTo: t.idOf(slug),
    claimedBy: t.idOf(slug),
    activeClaimantId: t.idOf(slug),
    claimedAt: now,
    lastHeartbeatAt: now,
  });
};

describe('drain', () => {
  it('lets the running agent run, spawns nothing new, and dispatches the waiting work on resume', async () => {
    const working = await claimedBy('be-dev-1', 'backend');
    await t.runLoop('dispatch.tick');
    const run = running().find((r) => r.agentSlug === 'be-dev-1')!;
    expect(run.taskId).toBe(working.id);

    expect((await pause('drain')).statusCode).toBe(200);
    const waiting = await t.insertTask({ team: 'backend', title: 'Waits for the pause to end' });
    expect(await t.runLoop('dispatch.tick')).toBe('held');
    t.dispatch.wake();
    await t.dispatch.dispatcher.settled();

    expect(running().map((r) => r.runId)).toEqual([run.runId]);
    expect(isAlive(run.pid!)).toBe(true);
    expect((await t.task(waiting.id)).assignedTo).toBeNull();
    const state = json<{ held: { reason: string; kill: boolean } }>(
      await t.app.inject({ method: 'GET', url: '/api/orchestrator/dispatcher', headers: t.ceoHeaders }),
    );
    expect(state.held).toEqual({ reason: expect.stringContaining('dispatch'), kill: false });
    const manual = await t.app.inject({
      method: 'POST',
      url: '/api/orchestrator/agents/be-dev-2/spawn',
      headers: t.ceoHeaders,
      payload: { task_id: waiting.id },
    });
    expect(manual.statusCode).toBe(409);
    expect(json<{ error: { code: string } }>(manual).error.code).toBe('dispatch_paused');

    await t.app.inject({ method: 'DELETE', url: '/api/maintenance-pause/dispatch', headers: t.ceoHeaders });
    await eventually(() => running().some((r) => r.agentSlug === 'be-dev-2' && r.taskId === waiting.id));
    expect(running().find((r) => r.agentSlug === 'be-dev-1')?.runId).toBe(run.runId);
  });
});

describe('kill', () => {
  it('stops the running agent now, SIGKILL after the grace, and returns its claim to pending with its owner kept', async () => {
    t.behave('fe-dev-1', 'stubborn');
    const working = await claimedBy('fe-dev-1', 'frontend');
    await t.runLoop('dispatch.tick');
    const run = running().find((r) => r.agentSlug === 'fe-dev-1')!;
    await eventually(() => t.reports('fe-dev-1').length > 0);

    expect((await pause('kill')).statusCode).toBe(200);
    await eventually(() => !isAlive(run.pid!) && running().length === 0);
    await eventually(async () => (await t.task(working.id)).status === 'pending');

    expect(await t.task(working.id)).toMatchObject({
      status: 'pending',
      assignedTo: t.idOf('fe-dev-1'),
      activeClaimantId: null,
      lastHeartbeatAt: null,
    });
    const [ended] = await t.platform.database.db.select().from(agentRuns).where(eq(agentRuns.id, run.runId));
    expect(ended).toMatchObject({ outcome: 'killed', signal: 'SIGKILL' });
    const events = json<{ events: { action: string; actor_role: string; reason: string | null }[] }>(
      await t.app.inject({ method: 'GET', url: `/api/tasks/${working.id}/events`, headers: t.ceoHeaders }),
    );
    expect(events.events.at(-1)).toMatchObject({
      action: 'release',
      actor_role: 'system',
      reason: 'kill pause of dispatch: deploying',
    });
    // Still paused: nothing is respawned.
    expect(await t.runLoop('dispatch.tick')).toBe('held');
    expect(running()).toEqual([]);
  });
});
