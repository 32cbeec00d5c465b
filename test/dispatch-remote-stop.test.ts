/**
 * The forwarded stop, between two "replicas" sharing one database and one cache (the app's own:
 * Redis with GAFFER_TEST_REDIS_URL, else in-process): the one that runs the agent answers with how
 * the run ended; no live run recorded anywhere answers "not running" at once; a live run recorded
 * that no replica answers for (its replica died) is a 504 `stop_unanswered` after the timeout.
 * Across real `gaffer start` processes: replicas.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import type { ExitView } from '../src/modules/dispatch/orchestrator.js';
import { RemoteStop } from '../src/modules/dispatch/remote-stop.js';
import { agentRuns } from '../src/modules/runtime/schema.js';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
const started: RemoteStop[] = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  for (const remote of started) await remote.close();
  await t?.close();
});

async function replica(stopLocal: (agentId: string, graceful: boolean) => Promise<ExitView | null>) {
  const remote = new RemoteStop({
    cache: t.platform.cache,
    db: t.platform.database.db,
    clock: t.platform.clock,
    killGraceSeconds: 1,
    marginMs: 300,
    stopLocal,
  });
  await remote.start();
  started.push(remote);
  return remote;
}

async function liveRun(agentId: string): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await t.platform.database.db
    .insert(agentRuns)
    .values({ id, agentId, runtime: 'process', provider: 'custom', startedAt: now, seenAt: now });
  return id;
}

describe('a stop forwarded to the replica that runs the agent', () => {
  it('answers with how the run ended there, not at all when no run is recorded, 504 when none answers', async () => {
    const runner = rosterMember('be-dev-1');
    const orphan = rosterMember('fe-dev-1');
    const idle = rosterMember('ux-dev-1');
    const runId = await liveRun(runner.id);
    await liveRun(orphan.id);
    const asked: [string, boolean][] = [];
    const exit = (agentId: string): ExitView => ({
      agent_id: agentId,
      run_id: runId,
      outcome: 'stopped',
      exit_code: 0,
      signal: null,
      detail: 'stopped on request',
      ended_at: new Date().toISOString(),
    });
    // Replica B runs be-dev-1 only; replica A runs nothing.
    await replica(async (agentId, graceful) => {
      asked.push([agentId, graceful]);
      return agentId === runner.id ? exit(agentId) : null;
    });
    const a = await replica(async () => null);

    expect(await a.stop(runner.id, true)).toMatchObject({
      agent_id: runner.id,
      run_id: runId,
      outcome: 'stopped',
    });
    expect(asked).toEqual([[runner.id, true]]);

    // No live run recorded: nobody is asked.
    expect(await a.stop(idle.id, false)).toBeNull();
    expect(asked).toHaveLength(1);

    // A live run recorded, but no replica runs it.
    await expect(a.stop(orphan.id, false)).rejects.toMatchObject({
      statusCode: 504,
      code: 'stop_unanswered',
    });
    expect(asked.at(-1)).toEqual([orphan.id, false]);
  });
});
