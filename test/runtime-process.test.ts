/**
 * The process runtime and the supervisor with real child processes (small node scripts standing in
 * for agent CLIs): argv from templates, environment, cwd, run files, output, exits, stop and kill
 * of whole process groups, one run per agent, lifecycle events and run records.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExitInfo } from '../src/modules/runtime/index.js';
import {
  eventually,
  type FakeAgents,
  grandchildPid,
  isAlive,
  writeFakeAgents,
} from '../src/modules/runtime/test-fake-agents.js';
import {
  eventsOf,
  printed,
  type RuntimeTestApp,
  startRuntimeApp,
} from '../src/modules/runtime/test-runtime-app.js';
import { AppError } from '../src/platform/http/errors.js';
import { insertProject, insertTask } from './fixtures-task-rows.js';

const GAFFER_COMMAND = ['/opt/node/bin/node', '/opt/gaffer/dist/main.js'];

let t: RuntimeTestApp;
let fakes: FakeAgents;
let runRoot: string;

beforeAll(async () => {
  fakes = writeFakeAgents();
  runRoot = mkdtempSync(join(tmpdir(), 'gaffer-runs-'));
  t = await startRuntimeApp(
    {
      process: {
        providers: {
          report: fakes.template(
            'report.mjs',
            `{prompt} --prompt-file={prompt_file} 'two words' "say \\"hi\\"" --mcp {mcp_config} ` +
              `--model {model} '$HOME; rm -rf {{workspace}}' --cwd={workspace}`,
          ),
          lines: fakes.template('lines.mjs', '20 2'),
          stubborn: fakes.template('stubborn.mjs'),
          polite: fakes.template('polite.mjs'),
          fail: fakes.template('fail.mjs'),
          missing: 'gaffer-no-such-agent-cli -p {prompt}',
        },
        gafferCommand: GAFFER_COMMAND,
        // Long on purpose: a kill that waited for it would time the test out.
        killGraceSeconds: 60,
        runRoot,
        serverEnv: {
          ...process.env,
          GAFFER_AUTH_SECRET: 'the-server-secret-0123456789abcdef0123',
          GAFFER_DATABASE_URL: 'postgres://gaffer:pw@db/gaffer',
        },
      },
    },
    { agentSandboxRead: [fakes.dir] },
  );
});
afterAll(async () => {
  // Whatever a failed test left running goes now, not after the long grace.
  await t?.runtime.supervisor.stopAll({ graceful: false });
  await t?.close();
  fakes?.remove();
  rmSync(runRoot, { recursive: true, force: true });
});

const supervisor = () => t.runtime.supervisor;

/** Waits until the run's last event (AGENT_STOPPED or AGENT_ERROR) has come back over the bus. */
const lastEventOf = (runId: string) =>
  eventually(() =>
    t.events.some(
      (event) =>
        (event.type === 'AGENT_STOPPED' || event.type === 'AGENT_ERROR') &&
        (event.data as { run_id?: string }).run_id === runId,
    ),
  );

/** Stops the agent and waits for the end to be recorded and published. */
async function stopAndSettle(agentId: string, options: { graceful: boolean; graceSeconds?: number }) {
  const runId = supervisor().get(agentId)?.runId;
  const exit = await supervisor().stop(agentId, options);
  if (runId) await lastEventOf(runId);
  return exit;
}

/** Spawns and waits for the run to end, be recorded and its events to come back. */
async function runToEnd(
  slug: string,
  provider: string,
  overrides = {},
): Promise<{ exit: ExitInfo; runId: string }> {
  const { agent } = await supervisor().spawn('process', t.specFor(slug, { provider, ...overrides }));
  const exit = await supervisor().whenEnded(agent.agentId);
  if (!exit) throw new Error('the run was not tracked');
  await lastEventOf(agent.runId);
  return { exit, runId: agent.runId };
}

/** The host pid of the grandchild the agent started (sandboxed, the pid it prints is its namespace's). */
const grandchildOf = (slug: string) => {
  const pid = grandchildPid(slug);
  if (pid === null) throw new Error(`no grandchild of ${slug} runs`);
  return pid;
};
const waitForReady = (agentId: string) => eventually(() => /ready \d+\n/.test(printed(t.events, agentId)));

describe('the process runtime', () => {
  it('runs the template as argv without a shell, in the workspace, with the agent identity and no server secrets', async () => {
    const db = t.platform.database.db;
    const task = await insertTask(db, { projectId: await insertProject(db) });
    const spec = t.specFor('be-dev-1', { provider: 'report', taskId: task.id, model: null });
    const { exit } = await runToEnd('be-dev-1', 'report', { taskId: task.id, model: null });
    expect(exit).toMatchObject({ outcome: 'exited', code: 0, signal: null, detail: 'exited with code 0' });

    const report = JSON.parse(printed(t.events, spec.agent.id));
    expect(report.argv).toEqual([
      spec.prompt,
      `--prompt-file=${report.promptFile}`,
      'two words',
      'say "hi"',
      '--mcp',
      report.mcpFile,
      // no model: `--model {model}` vanished whole
      '$HOME; rm -rf {workspace}',
      `--cwd=${t.workspace}`,
    ]);
    expect(realpathSync(report.cwd)).toBe(realpathSync(t.workspace));
    expect(report.env).toMatchObject({
      // The gateway door on the sandbox's own loopback, at the gateway's port.
      GAFFER_GATEWAY_URL: 'http://127.0.0.1:8420',
      GAFFER_AGENT_ID: spec.agent.id,
      GAFFER_AGENT_SLUG: 'be-dev-1',
      GAFFER_AGENT_ROLE: 'developer',
      GAFFER_AGENT_TEAM: 'backend',
      // The door adds the token to each gateway call: it never enters the sandbox.
      GAFFER_AGENT_TOKEN: '',
      GAFFER_TASK_ID: task.id,
      PATH: process.env.PATH,
      HTTPS_PROXY: 'http://127.0.0.1:3128',
    });
    expect(JSON.stringify(report.env)).not.toContain('token-of-be-dev-1');
    expect(report.env.GAFFER_RUN_ID).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      Object.keys(report.env)
        .filter((name) => name.startsWith('GAFFER_'))
        .sort(),
    ).toEqual([
      'GAFFER_AGENT_ID',
      'GAFFER_AGENT_ROLE',
      'GAFFER_AGENT_SLUG',
      'GAFFER_AGENT_TEAM',
      'GAFFER_AGENT_TOKEN',
      'GAFFER_GATEWAY_URL',
      'GAFFER_RUN_ID',
      'GAFFER_TASK_ID',
    ]);
    expect(JSON.stringify(report.env)).not.toContain('the-server-secret');

    expect(report.prompt).toBe(spec.prompt);
    expect(report.mcp).toEqual({
      mcpServers: {
        gaffer: {
          command: GAFFER_COMMAND[0],
          args: [GAFFER_COMMAND[1], 'agent-tools', '--role', 'developer'],
          // References to the variables, expanded by the CLI: the token itself is never on disk.
          env: Object.fromEntries(
            [
              'GAFFER_GATEWAY_URL',
              'GAFFER_AGENT_ID',
              'GAFFER_AGENT_ROLE',
              'GAFFER_AGENT_TEAM',
              'GAFFER_AGENT_TOKEN',
            ].map((name) => [name, `\${${name}}`]),
          ),
        },
      },
    });
    expect(JSON.stringify(report.mcp)).not.toContain('token-of-be-dev-1');
    expect(report.argv.join(' ')).not.toContain('token-of-be-dev-1');
    // The run's prompt and MCP files are gone with it.
    expect(readdirSync(runRoot)).toEqual([]);
  });

  it('passes the model when there is one, and serves the board route for a product owner', async () => {
    const { exit } = await runToEnd('product-owner', 'report', { model: 'opus-4' });
    expect(exit.outcome).toBe('exited');
    const report = JSON.parse(printed(t.events, t.specFor('product-owner').agent.id));
    expect(report.argv).toContain('--model');
    expect(report.argv[report.argv.indexOf('--model') + 1]).toBe('opus-4');
    expect(report.mcp.mcpServers.gaffer.args).toEqual([GAFFER_COMMAND[1], 'agent-tools', '--role', 'board']);
    expect(report.env.GAFFER_AGENT_ROLE).toBe('product_owner');
    expect(report.env.GAFFER_TASK_ID).toBeUndefined();
  });

  it('streams stdout and stderr in order between AGENT_SPAWNED and AGENT_STOPPED, and records the run', async () => {
    const agentId = t.specFor('be-dev-2').agent.id;
    const { exit, runId } = await runToEnd('be-dev-2', 'lines');
    expect(exit.outcome).toBe('exited');
    const expected = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
    expect(printed(t.events, agentId)).toBe(expected);
    expect(printed(t.events, agentId, 'stderr')).toBe('note on stderr\n');

    const types = t.events
      .filter((event) => (event.data as { agent_id?: string }).agent_id === agentId)
      .map((event) => event.type);
    expect(types[0]).toBe('AGENT_SPAWNED');
    expect(types.at(-1)).toBe('AGENT_STOPPED');
    expect(types.slice(1, -1).every((type) => type === 'AGENT_OUTPUT')).toBe(true);
    expect(eventsOf(t.events, 'AGENT_STOPPED', agentId)).toEqual([
      { agent_id: agentId, task_id: null, detail: 'exited with code 0', run_id: runId },
    ]);
    const outputs = eventsOf(t.events, 'AGENT_OUTPUT', agentId);
    expect(outputs.map((data) => data.seq)).toEqual(outputs.map((_, i) => i + 1));
    expect(outputs.every((data) => data.run_id === runId)).toBe(true);
  });

  it('records a non-zero exit with its last stderr line and publishes AGENT_ERROR', async () => {
    const agentId = t.specFor('fe-dev-1').agent.id;
    const { exit } = await runToEnd('fe-dev-1', 'fail');
    expect(exit).toMatchObject({
      outcome: 'failed',
      code: 3,
      signal: null,
      detail: 'exited with code 3: boom: the build broke',
    });
    expect(eventsOf(t.events, 'AGENT_ERROR', agentId).map((data) => data.detail)).toEqual([exit.detail]);
    expect(eventsOf(t.events, 'AGENT_STOPPED', agentId)).toEqual([]);
    const runs = await t.app.inject({ method: 'GET', url: '/api/stream/fe-dev-1', headers: t.ceoHeaders });
    expect(runs.json().runs[0]).toMatchObject({ status: 'failed', exit_code: 3, detail: exit.detail });
  });

  it('escalates a graceful stop to SIGKILL after the grace, killing the whole process group', async () => {
    const spec = t.specFor('fe-dev-2', { provider: 'stubborn' });
    const { agent } = await supervisor().spawn('process', spec);
    await waitForReady(spec.agent.id);
    const grandchild = grandchildOf(spec.agent.slug);
    expect(isAlive(grandchild)).toBe(true);

    const exit = await stopAndSettle(spec.agent.id, { graceful: true, graceSeconds: 1.5 });
    expect(exit).toMatchObject({ outcome: 'killed', code: null, signal: 'SIGKILL' });
    expect(exit?.detail).toBe('did not stop within 1.5 s of SIGTERM; killed with SIGKILL (signal SIGKILL)');
    // It did get the SIGTERM first.
    expect(printed(t.events, spec.agent.id)).toContain('ignoring SIGTERM');
    await eventually(() => !isAlive(grandchild));
    expect(isAlive(agent.pid as number)).toBe(false);
    expect(eventsOf(t.events, 'AGENT_STOPPED', spec.agent.id).map((data) => data.detail)).toEqual([
      exit?.detail,
    ]);
  });

  it('kills at once with SIGKILL, the grandchild too', async () => {
    const spec = t.specFor('ux-dev-1', { provider: 'stubborn' });
    await supervisor().spawn('process', spec);
    await waitForReady(spec.agent.id);
    const grandchild = grandchildOf(spec.agent.slug);

    const exit = await stopAndSettle(spec.agent.id, { graceful: false });
    expect(exit).toMatchObject({
      outcome: 'killed',
      signal: 'SIGKILL',
      detail: 'killed with SIGKILL (signal SIGKILL)',
    });
    expect(printed(t.events, spec.agent.id)).not.toContain('ignoring SIGTERM');
    await eventually(() => !isAlive(grandchild));
    expect(readdirSync(runRoot)).toEqual([]);
  });

  it('stops a polite agent with SIGTERM and still reaps what it left running', async () => {
    const spec = t.specFor('ux-dev-2', { provider: 'polite' });
    await supervisor().spawn('process', spec);
    await waitForReady(spec.agent.id);
    const grandchild = grandchildOf(spec.agent.slug);

    const exit = await stopAndSettle(spec.agent.id, { graceful: true });
    expect(exit).toMatchObject({ outcome: 'stopped', code: 0, detail: 'stopped with SIGTERM (exit code 0)' });
    expect(printed(t.events, spec.agent.id)).toContain('bye\n');
    await eventually(() => !isAlive(grandchild));
  });

  it('runs at most one run per agent: a second spawn returns the running one', async () => {
    const spec = t.specFor('be-qa', { provider: 'stubborn' });
    const [first, second] = await Promise.all([
      supervisor().spawn('process', spec),
      supervisor().spawn('process', spec),
    ]);
    expect(second.agent.runId).toBe(first.agent.runId);
    expect([first.alreadyRunning, second.alreadyRunning].sort()).toEqual([false, true]);
    const third = await supervisor().spawn('process', { ...spec, prompt: 'another prompt' });
    expect(third).toMatchObject({ alreadyRunning: true });
    expect(third.agent.runId).toBe(first.agent.runId);
    expect(
      supervisor()
        .list()
        .filter((run) => run.agentId === spec.agent.id),
    ).toEqual([
      expect.objectContaining({
        runId: first.agent.runId,
        agentSlug: 'be-qa',
        provider: 'stubborn',
        waiting: null,
      }),
    ]);
    await eventually(() => eventsOf(t.events, 'AGENT_SPAWNED', spec.agent.id).length > 0);

    expect(supervisor().markWaiting(spec.agent.id, 'waiting for the PM')).toBe(true);
    expect(
      supervisor()
        .list()
        .find((run) => run.agentId === spec.agent.id)?.waiting,
    ).toMatchObject({
      detail: 'waiting for the PM',
    });
    expect(supervisor().markResumed(spec.agent.id, 'the PM answered')).toBe(true);

    await stopAndSettle(spec.agent.id, { graceful: false });
    expect(supervisor().get(spec.agent.id)).toBeNull();
    expect(await supervisor().stop(spec.agent.id, { graceful: false })).toBeNull();
    expect(supervisor().markWaiting(spec.agent.id, 'too late')).toBe(false);
    const types = t.events
      .filter((event) => (event.data as { agent_id?: string }).agent_id === spec.agent.id)
      .map((event) => event.type)
      .filter((type) => type !== 'AGENT_OUTPUT');
    expect(types).toEqual(['AGENT_SPAWNED', 'AGENT_WAITING', 'AGENT_RESUMED', 'AGENT_STOPPED']);
    expect(eventsOf(t.events, 'AGENT_SPAWNED', spec.agent.id)).toHaveLength(1);

    // Once it has ended, a spawn starts a new run.
    const again = await supervisor().spawn('process', spec);
    expect(again.alreadyRunning).toBe(false);
    expect(again.agent.runId).not.toBe(first.agent.runId);
    await supervisor().stop(spec.agent.id, { graceful: false });
  });

  it('refuses spawns it cannot start, with a clear error, a recorded failure and nothing left behind', async () => {
    const spec = t.specFor('fe-qa', { provider: 'missing' });
    const failure = await supervisor()
      .spawn('process', spec)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ statusCode: 503, code: 'agent_cli_unavailable' });
    expect((failure as AppError).message).toContain('gaffer-no-such-agent-cli');
    await eventually(() => eventsOf(t.events, 'AGENT_ERROR', spec.agent.id).length > 0);
    const errors = eventsOf(t.events, 'AGENT_ERROR', spec.agent.id);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.detail).toContain('could not start');
    expect(supervisor().get(spec.agent.id)).toBeNull();
    expect(readdirSync(runRoot)).toEqual([]);

    await expect(supervisor().spawn('process', { ...spec, provider: 'nobody-knows' })).rejects.toMatchObject({
      statusCode: 422,
      code: 'unknown_provider',
    });
    await expect(
      supervisor().spawn('process', { ...spec, provider: 'report', workspace: join(runRoot, 'gone') }),
    ).rejects.toMatchObject({ statusCode: 409, code: 'workspace_missing' });
    await expect(
      supervisor().spawn('docker' as never, { ...spec, provider: 'report' }),
    ).rejects.toMatchObject({
      statusCode: 422,
      code: 'unknown_runtime',
    });
    await expect(
      supervisor().spawn('process', {
        ...spec,
        provider: 'report',
        agent: { id: '00000000-0000-0000-0000-000000000001', slug: 'ceo', role: 'ceo', team: null },
      }),
    ).rejects.toMatchObject({ statusCode: 422, code: 'not_spawnable' });
    await expect(
      supervisor().spawn('process', {
        ...spec,
        provider: 'report',
        agent: { ...spec.agent, id: '99999999-0000-0000-0000-000000000099' },
      }),
    ).rejects.toMatchObject({ statusCode: 422, code: 'unknown_agent' });
  });
});
