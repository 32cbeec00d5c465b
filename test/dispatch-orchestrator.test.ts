/**
 * /api/orchestrator agent routes through the real app, with real agent processes: CEO only (401
 * without a token, 403 for anyone else), the running list, a manual spawn in the task's worktree
 * (or a scratch directory) and its 409 when the agent already runs, a graceful stop and a kill with
 * the exit info, the hold the dispatcher then keeps on a stopped agent, the dispatcher state, and a
 * clear 4xx for every bad input.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PassSummary } from '../src/modules/dispatch/index.js';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { eventually, isAlive } from '../src/modules/runtime/test-fake-agents.js';
import { json } from './support/app.js';

let t: DispatchTestApp;

beforeAll(async () => {
  t = await startDispatchApp();
});
afterEach(() => t.reset());
afterAll(() => t?.close());

interface Run {
  agent_id: string;
  agent_slug: string;
  task_id: string | null;
  run_id: string;
  runtime: string;
  pid: number;
  started_at: string;
}
interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown>; remediate?: string };
}

const call = (
  method: 'GET' | 'POST',
  url: string,
  payload?: Record<string, unknown>,
  headers: Record<string, string> = t.ceoHeaders,
) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
const spawn = (agent: string, body: Record<string, unknown> = {}) =>
  call('POST', `/api/orchestrator/agents/${agent}/spawn`, body);
const stop = (agent: string, body: Record<string, unknown> = { graceful: true }) =>
  call('POST', `/api/orchestrator/agents/${agent}/stop`, body);

describe('who may call', () => {
  it('answers 401 without a token and 403 to anyone but the CEO', async () => {
    const dev = t.headersFor(t.idOf('be-dev-1'), 'developer', 'backend');
    const pm = t.headersFor(t.idOf('main-pm'), 'main_pm', 'main_pm');
    const routes: ['GET' | 'POST', string, Record<string, unknown> | undefined][] = [
      ['GET', '/api/orchestrator/agents', undefined],
      ['GET', '/api/orchestrator/dispatcher', undefined],
      ['POST', '/api/orchestrator/agents/be-dev-1/spawn', {}],
      ['POST', '/api/orchestrator/agents/be-dev-1/stop', { graceful: true }],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, payload, {})).statusCode).toBe(401);
      for (const headers of [dev, pm]) {
        const response = await call(method, url, payload, headers);
        expect(response.statusCode).toBe(403);
        expect(json<ErrorBody>(response).error.code).toBe('forbidden');
      }
    }
    expect(t.runtime.supervisor.list()).toEqual([]);
  });
});

describe('spawn and stop', () => {
  it('spawns an agent on a task in its worktree, lists it, refuses a second spawn with the run, and stops it', async () => {
    const task = await t.insertTask({
      team: 'backend',
      projectId: t.project.id,
      assignedTo: t.idOf('be-dev-1'),
    });
    const spawned = await spawn('be-dev-1', { task_id: task.id });
    expect(spawned.statusCode).toBe(201);
    const { run, already_running } = json<{ run: Run; already_running: boolean }>(spawned);
    expect(already_running).toBe(false);
    expect(run).toMatchObject({ agent_slug: 'be-dev-1', task_id: task.id, runtime: 'process' });
    expect(isAlive(run.pid)).toBe(true);
    await eventually(() => t.reports('be-dev-1').length > 0);
    expect(t.reports('be-dev-1').at(-1)!.cwd).toContain(
      `/workspaces/be-dev-1/shop/tasks/${task.id.slice(0, 8)}`,
    );

    const listed = json<{ agents: Run[] }>(await call('GET', '/api/orchestrator/agents'));
    expect(listed.agents).toEqual([
      expect.objectContaining({ run_id: run.run_id, pid: run.pid, task_id: task.id }),
    ]);

    const again = await spawn('be-dev-1', { task_id: task.id });
    expect(again.statusCode).toBe(409);
    expect(json<ErrorBody>(again).error).toMatchObject({
      code: 'already_running',
      details: { already_running: true, run: expect.objectContaining({ run_id: run.run_id }) },
    });

    const stopped = await stop(t.idOf('be-dev-1'));
    expect(stopped.statusCode).toBe(200);
    expect(json(stopped)).toMatchObject({
      agent_id: t.idOf('be-dev-1'),
      run_id: run.run_id,
      outcome: 'stopped', // it exits on SIGTERM, within the grace
      exit_code: 0,
    });
    expect(isAlive(run.pid)).toBe(false);
    expect(json<{ agents: Run[] }>(await call('GET', '/api/orchestrator/agents')).agents).toEqual([]);
    const notRunning = await stop('be-dev-1');
    expect(notRunning.statusCode).toBe(409);
    expect(json<ErrorBody>(notRunning).error.code).toBe('agent_not_running');
  });

  it('kills at once with graceful false, and the dispatcher leaves a stopped agent alone until spawned by hand', async () => {
    t.behave('fe-dev-2', 'stubborn');
    const task = await t.insertTask({ team: 'frontend', assignedTo: t.idOf('fe-dev-2') });
    await t.runLoop('dispatch.tick');
    const run = t.runtime.supervisor.list().find((r) => r.agentSlug === 'fe-dev-2')!;
    await eventually(() => t.reports('fe-dev-2').length > 0);

    const killed = await stop('fe-dev-2', { graceful: false });
    expect(json(killed)).toMatchObject({ outcome: 'killed', signal: 'SIGKILL' });
    expect(isAlive(run.pid!)).toBe(false);

    await t.runLoop('dispatch.tick');
    expect(t.runtime.supervisor.list()).toEqual([]);
    const state = json<{ last_pass: PassSummary; held_agents: { agent_id: string; why: string }[] }>(
      await call('GET', '/api/orchestrator/dispatcher'),
    );
    expect(state.held_agents).toEqual([
      expect.objectContaining({ agent_id: t.idOf('fe-dev-2'), why: 'stopped_by_ceo' }),
    ]);
    expect(state.last_pass.skipped).toContainEqual({ task_id: task.id, reason: 'fe-dev-2 is held back' });

    t.behave('fe-dev-2', 'sleep');
    expect((await spawn('fe-dev-2', { task_id: task.id })).statusCode).toBe(201);
    const after = json<{ held_agents: unknown[] }>(await call('GET', '/api/orchestrator/dispatcher'));
    expect(after.held_agents).toEqual([]);
  });

  it('spawns without a task in a scratch directory, asking the agent to find its work', async () => {
    const spawned = await spawn('ux-qa');
    expect(spawned.statusCode).toBe(201);
    await eventually(() => t.reports('ux-qa').length > 0);
    const report = t.reports('ux-qa').at(-1)!;
    expect(report.task).toBeNull();
    expect(report.cwd).toBe(`${t.platform.config.dataDir}/dispatch/scratch/ux-qa`);
    expect(report.prompt).toContain('give_me_work');
  });

  it('uses the prompt it is given', async () => {
    expect((await spawn('be-doc', { prompt: 'Write the changelog entry.' })).statusCode).toBe(201);
    await eventually(() => t.reports('be-doc').length > 0);
    expect(t.reports('be-doc').at(-1)!.prompt).toBe('Write the changelog entry.');
  });
});

describe('bad input', () => {
  it('answers a clear 4xx for each', async () => {
    const cases: [() => ReturnType<typeof spawn>, number, string][] = [
      [() => spawn('nobody-here'), 404, 'not_found'],
      [() => spawn('be-dev-1', { task_id: randomUUID() }), 404, 'not_found'],
      [() => spawn('ceo'), 422, 'not_spawnable'],
      [() => spawn('system'), 422, 'not_spawnable'],
      [() => spawn('be-dev-1', { task_id: 'not-a-uuid' }), 422, 'validation_failed'],
      [() => spawn('be-dev-1', { prompt: '' }), 422, 'validation_failed'],
      [() => spawn('be-dev-1', { model: 'opus' }), 422, 'validation_failed'],
      [() => stop('be-dev-1', {}), 422, 'validation_failed'],
      [() => stop('be-dev-1', { graceful: 'yes' }), 422, 'validation_failed'],
      [() => stop('nobody-here'), 404, 'not_found'],
    ];
    for (const [request, status, code] of cases) {
      const answered = await request();
      expect({ status: answered.statusCode, code: json<ErrorBody>(answered).error.code }).toEqual({
        status,
        code,
      });
    }
    const short = await spawn('be-dev-1', { task_id: '1234abcd' });
    expect(short.statusCode).toBe(422);
    expect(json<ErrorBody>(short).error.remediate).toMatch(/36-character/);
    expect(t.runtime.supervisor.list()).toEqual([]);
  });
});

describe('the API docs', () => {
  it('document every orchestrator route with its bodies', async () => {
    const document = json<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>(
      await t.app.inject({ url: '/docs/json' }),
    );
    expect(Object.keys(document.paths['/api/orchestrator/agents']!)).toEqual(['get']);
    expect(Object.keys(document.paths['/api/orchestrator/dispatcher']!)).toEqual(['get']);
    expect(document.paths['/api/orchestrator/agents/{agent_id}/spawn']!.post!.requestBody).toBeDefined();
    expect(document.paths['/api/orchestrator/agents/{agent_id}/stop']!.post!.requestBody).toBeDefined();
  });
});

describe('the dispatcher state', () => {
  it('shows its settings, hold, counts and last pass', async () => {
    await t.runLoop('dispatch.tick');
    const state = json(await call('GET', '/api/orchestrator/dispatcher'));
    expect(state).toMatchObject({
      enabled: true,
      runtime: 'process',
      provider: 'custom',
      respawn_limit: 3,
      stale_claim_seconds: 600,
      held: null,
      last_pass: expect.objectContaining({ spawned: [], errors: [], aborted: null }),
      stalled_tasks: [],
    });
  });
});
