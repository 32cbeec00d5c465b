/**
 * The supervisor with an in-process runtime, the way the scripted runtime will plug in: output
 * printed before spawn() even returns still follows AGENT_SPAWNED, a run that ends by itself or
 * whose runtime fails is recorded and published, listeners hear of every end, stopAll stops all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRuntime, EndedRun, ExitInfo, RunIo, SpawnSpec } from '../src/modules/runtime/index.js';
import { eventually } from '../src/modules/runtime/test-fake-agents.js';
import { eventsOf, type RuntimeTestApp, startRuntimeApp } from '../src/modules/runtime/test-runtime-app.js';

/** An in-process runtime whose runs the test ends by hand. */
function handRuntime() {
  const runs = new Map<string, { io: RunIo; end(exit: Partial<ExitInfo>): void; fail(error: Error): void }>();
  const runtime: AgentRuntime = {
    kind: 'scripted',
    async spawn(spec: SpawnSpec, io: RunIo) {
      if (spec.provider === 'broken') throw new Error('no such scripted program');
      let end!: (exit: ExitInfo) => void;
      let fail!: (error: Error) => void;
      const exited = new Promise<ExitInfo>((resolve, reject) => {
        end = resolve;
        fail = reject;
      });
      const finish = (exit: Partial<ExitInfo>) =>
        end({ outcome: 'exited', code: 0, signal: null, detail: 'done', endedAt: new Date(), ...exit });
      runs.set(spec.agent.id, { io, end: finish, fail });
      io.output('stdout', `hello from ${spec.agent.slug}\n`);
      return {
        agentId: spec.agent.id,
        taskId: spec.taskId,
        runId: io.runId,
        kind: 'scripted' as const,
        startedAt: new Date(),
        exited,
        async stop({ graceful }) {
          finish({
            outcome: graceful ? 'stopped' : 'killed',
            code: null,
            detail: graceful ? 'asked to stop' : 'killed',
          });
          return exited;
        },
      };
    },
  };
  return { runtime, runs };
}

let t: RuntimeTestApp;
const hand = handRuntime();
const ended: EndedRun[] = [];

beforeAll(async () => {
  t = await startRuntimeApp();
  t.runtime.supervisor.register(hand.runtime);
  t.runtime.supervisor.onRunEnded((run) => ended.push(run));
});
afterAll(() => t?.close());

const typesFor = (agentId: string) =>
  t.events
    .filter((event) => (event.data as { agent_id?: string }).agent_id === agentId)
    .map((event) => event.type);
const lastEvent = (agentId: string) =>
  eventually(() => ['AGENT_STOPPED', 'AGENT_ERROR'].includes(typesFor(agentId).at(-1) ?? ''));

describe('the supervisor with an in-process runtime', () => {
  it('publishes output printed during spawn after AGENT_SPAWNED, and records a run that ends by itself', async () => {
    const spec = t.specFor('be-doc', { provider: 'documenter-script' });
    const { agent, alreadyRunning } = await t.runtime.supervisor.spawn('scripted', spec);
    expect(alreadyRunning).toBe(false);
    expect(agent.pid).toBeUndefined();
    hand.runs.get(spec.agent.id)?.io.output('stdout', 'wrote the docs\n');
    hand.runs.get(spec.agent.id)?.end({});
    expect(await t.runtime.supervisor.whenEnded(spec.agent.id)).toMatchObject({
      outcome: 'exited',
      detail: 'done',
    });
    await lastEvent(spec.agent.id);

    expect(typesFor(spec.agent.id)).toEqual([
      'AGENT_SPAWNED',
      'AGENT_OUTPUT',
      'AGENT_OUTPUT',
      'AGENT_STOPPED',
    ]);
    expect(eventsOf(t.events, 'AGENT_SPAWNED', spec.agent.id)[0]?.detail).toBe(
      'scripted runtime, provider documenter-script',
    );
    expect(ended.at(-1)).toMatchObject({
      agentId: spec.agent.id,
      runtime: 'scripted',
      exit: { outcome: 'exited' },
    });
    const runs = await t.app.inject({ method: 'GET', url: '/api/stream/be-doc', headers: t.ceoHeaders });
    expect(runs.json().runs[0]).toMatchObject({ runtime: 'scripted', status: 'exited', pid: null });
  });

  it('turns a runtime whose run rejects, or that cannot start, into AGENT_ERROR and a failed run', async () => {
    const spec = t.specFor('fe-doc', { provider: 'documenter-script' });
    await t.runtime.supervisor.spawn('scripted', spec);
    hand.runs.get(spec.agent.id)?.fail(new Error('the script crashed'));
    expect(await t.runtime.supervisor.whenEnded(spec.agent.id)).toMatchObject({
      outcome: 'failed',
      detail: 'the runtime failed: the script crashed',
    });
    await lastEvent(spec.agent.id);
    expect(eventsOf(t.events, 'AGENT_ERROR', spec.agent.id).map((data) => data.detail)).toEqual([
      'the runtime failed: the script crashed',
    ]);

    const broken = t.specFor('ux-doc', { provider: 'broken' });
    await expect(t.runtime.supervisor.spawn('scripted', broken)).rejects.toThrow('no such scripted program');
    await lastEvent(broken.agent.id);
    expect(typesFor(broken.agent.id)).toEqual(['AGENT_ERROR']);
    const runs = await t.app.inject({ method: 'GET', url: '/api/stream/ux-doc', headers: t.ceoHeaders });
    expect(runs.json().runs[0]).toMatchObject({
      status: 'failed',
      detail: 'could not start: no such scripted program',
    });
  });

  it('stops a run whose CLI says the provider refused its key, and records why', async () => {
    const spec = t.specFor('be-dev-2', { provider: 'claude-like' });
    await t.runtime.supervisor.spawn('scripted', spec);
    const run = hand.runs.get(spec.agent.id)!;
    // Tool output that mentions a 401 is no refusal: the run goes on.
    run.io.output(
      'stdout',
      '{"type":"user","message":{"content":[{"type":"tool_result","content":"401 Unauthorized"}]}}\n',
    );
    expect(t.runtime.supervisor.get(spec.agent.id)).not.toBeNull();
    run.io.output(
      'stdout',
      '{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"error_status":401,"error":"authentication_failed"}\n',
    );
    const refusal = 'the model provider refused the credentials: authentication_failed 401';
    expect(await t.runtime.supervisor.whenEnded(spec.agent.id)).toMatchObject({
      outcome: 'failed',
      detail: refusal,
    });
    expect(ended.at(-1)).toMatchObject({ agentId: spec.agent.id, refused: 'authentication_failed 401' });
    await lastEvent(spec.agent.id);
    expect(eventsOf(t.events, 'AGENT_ERROR', spec.agent.id).map((data) => data.detail)).toEqual([refusal]);
    const runs = await t.app.inject({ method: 'GET', url: '/api/stream/be-dev-2', headers: t.ceoHeaders });
    expect(runs.json().runs[0]).toMatchObject({ status: 'failed', detail: refusal });
  });

  it('stops every running agent with stopAll and refuses spawns once closed', async () => {
    const slugs = ['be-pm', 'fe-pm', 'ux-pm'];
    for (const slug of slugs)
      await t.runtime.supervisor.spawn('scripted', t.specFor(slug, { provider: 'pm-script' }));
    expect(
      t.runtime.supervisor
        .list()
        .map((run) => run.agentSlug)
        .sort(),
    ).toEqual(slugs);
    const exits = await t.runtime.supervisor.stopAll({ graceful: true });
    expect(exits.map((exit) => exit.outcome)).toEqual(['stopped', 'stopped', 'stopped']);
    expect(t.runtime.supervisor.list()).toEqual([]);

    await t.runtime.supervisor.close();
    await expect(
      t.runtime.supervisor.spawn('scripted', t.specFor('main-pm', { provider: 'pm-script' })),
    ).rejects.toMatchObject({ statusCode: 503, code: 'runtime_closing' });
  });
});
