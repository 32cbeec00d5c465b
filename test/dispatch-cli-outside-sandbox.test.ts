/**
 * An agent CLI installed where the sandbox cannot bind it — lying in the home of the server's user
 * itself — makes every spawn throw a 503 `agent_cli_outside_sandbox` before anything runs. The
 * dispatcher treats that as a CLI failing on start: in the pass that meets it, the CEO gets one
 * notification naming the path to add to GAFFER_AGENT_SANDBOX_READ, and the agent is backed off
 * (not retried every pass, and not told again) — until an experiment on its role ends, which lifts
 * the back-off at once (what it failed on may have been an arm's CLI).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliStartFailure } from '../src/modules/dispatch/cli-failures.js';
import type { PassSummary } from '../src/modules/dispatch/index.js';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { eventually } from '../src/modules/runtime/test-fake-agents.js';
import { AppError } from '../src/platform/http/errors.js';
import { probeSandbox } from '../src/platform/process/index.js';
import { json } from './support/app.js';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the CLI-outside-the-sandbox dispatch suite: ${bwrap.reason}`);

const fakeHome = mkdtempSync(join(tmpdir(), 'gaffer-fake-home-'));
/** The CLI, a file in the home itself: its folder (the home) is never bound. */
const loose = join(fakeHome, 'my-agent-cli');
let t: DispatchTestApp;

beforeAll(async () => {
  writeFileSync(loose, '#!/bin/sh\necho never runs\n');
  chmodSync(loose, 0o755);
  // The sandbox learns the server user's home as the app is built.
  vi.stubEnv('HOME', fakeHome);
  try {
    // A pass a second: a spawn failure backed off for a tick only would be retried at once.
    t = await startDispatchApp({
      config: { agentCommandCustom: `${loose} {prompt_file}`, dispatchIntervalSeconds: 1 },
    });
  } finally {
    vi.unstubAllEnvs();
  }
});
afterAll(async () => {
  await t?.close();
  rmSync(fakeHome, { recursive: true, force: true });
});

interface Notification {
  subject: string;
  body: string;
  related_task_id: string | null;
}
const cliAlerts = async () =>
  json<{ notifications: Notification[] }>(
    await t.app.inject({ method: 'GET', url: '/api/notifications?limit=100', headers: t.ceoHeaders }),
  ).notifications.filter((n) => n.subject.includes('agent CLI fails as it starts'));
interface DispatcherView {
  passes: number;
  last_pass: PassSummary;
  held_agents: { agent_id: string; until: string; why: string }[];
}
const dispatcher = async () =>
  json<DispatcherView>(
    await t.app.inject({ method: 'GET', url: '/api/orchestrator/dispatcher', headers: t.ceoHeaders }),
  );

describe.skipIf(!bwrap.ok)('an agent CLI the sandbox cannot bind', () => {
  it('is told to the CEO once, in the pass that meets it, with the path to add; the agent is backed off', async () => {
    const task = await t.insertTask({
      team: 'backend',
      assignedTo: t.idOf('be-dev-1'),
      title: 'Never starts',
    });
    const startedAt = Date.now();
    await t.runLoop('dispatch.tick');
    await eventually(async () => (await cliAlerts()).length > 0);
    const [alert] = await cliAlerts();
    expect(alert).toMatchObject({
      subject: 'The custom agent CLI fails as it starts',
      related_task_id: task.id,
    });
    expect(alert!.body).toContain(
      `be-dev-1's custom run failed on start: the agent sandbox cannot bind ${loose}: ` +
        `its folder ${fakeHome} is the home of the server's user`,
    );
    expect(alert!.body).toContain(`Add ${loose} to GAFFER_AGENT_SANDBOX_READ and restart Gaffer`);

    // Backed off as a CLI failing on start is (half a minute at first), not for one tick.
    const first = await dispatcher();
    const held = first.held_agents.find((h) => h.agent_id === t.idOf('be-dev-1'));
    expect(held?.why).toBe('spawn_failed');
    expect(new Date(held!.until).getTime() - startedAt).toBeGreaterThanOrEqual(29_000);

    // Three more passes: nothing tried for it, nothing told again.
    await eventually(async () => (await dispatcher()).passes >= first.passes + 3, 15_000);
    await t.dispatch.dispatcher.idle();
    const later = await dispatcher();
    expect(later.last_pass.errors).toEqual([]);
    expect(later.last_pass.spawned).toEqual([]);
    expect(await cliAlerts()).toHaveLength(1);
    const runs = json<{ runs: { status: string }[] }>(
      await t.app.inject({ method: 'GET', url: '/api/stream/be-dev-1', headers: t.ceoHeaders }),
    ).runs;
    expect(runs.map((run) => run.status)).toEqual(['failed']);
    expect((await t.task(task.id)).status).toBe('pending');

    // An experiment on the developers' role ends (the CEO stops it): what its agents failed on may
    // have been an arm's CLI, now gone, so their back-off is lifted on the spot — be-dev-1 is tried
    // again before the back-off would have let it.
    const call = async (url: string, payload?: object) =>
      json<{ id: string; status: string }>(
        await t.app.inject({ method: 'POST', url, headers: t.ceoHeaders, ...(payload ? { payload } : {}) }),
      );
    const experiment = await call('/api/workforce/experiments', {
      role: 'developer',
      a: { model: 'model-a' },
      b: { model: 'model-b' },
      share_b: 50,
    });
    expect((await call(`/api/workforce/experiments/${experiment.id}/stop`)).status).toBe('ended');
    const tries = async () =>
      json<{ runs: { status: string; started_at: string }[] }>(
        await t.app.inject({ method: 'GET', url: '/api/stream/be-dev-1', headers: t.ceoHeaders }),
      ).runs;
    await eventually(async () => (await tries()).length >= 2, 20_000);
    const retried = Math.max(...(await tries()).map((run) => new Date(run.started_at).getTime()));
    expect(retried).toBeLessThan(new Date(held!.until).getTime());
  });

  it('counts a missing CLI and one out of sight as the CLI failing on start, nothing else', () => {
    const outside = new AppError(
      503,
      'agent_cli_outside_sandbox',
      'x is installed at /h/x',
      {},
      'add /h/x to R',
    );
    expect(cliStartFailure(outside)).toEqual({
      cause: 'x is installed at /h/x',
      remedy: 'Add /h/x to R.',
      provider: null,
    });
    const missing = new AppError(503, 'agent_cli_unavailable', 'could not start x', { provider: 'codex' });
    expect(cliStartFailure(missing)).toEqual({ cause: 'could not start x', remedy: null, provider: 'codex' });
    expect(cliStartFailure(new AppError(409, 'workspace_missing', 'gone'))).toBeNull();
    expect(cliStartFailure(new Error('boom'))).toBeNull();
  });
});
