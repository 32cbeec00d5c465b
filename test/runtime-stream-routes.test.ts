/**
 * An agent's output end to end: a real agent process's output reaches a /ws/agents/{id} socket and
 * the /api/stream transcript routes in order; paging, the per-run cap, who may read, and the
 * retention prune.
 */
import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOST_RUN_DETAIL, LOST_RUNS_LOOP, pruneTranscripts } from '../src/modules/runtime/index.js';
import { agentRuns } from '../src/modules/runtime/schema.js';
import { eventually, type FakeAgents, writeFakeAgents } from '../src/modules/runtime/test-fake-agents.js';
import { printed, type RuntimeTestApp, startRuntimeApp } from '../src/modules/runtime/test-runtime-app.js';
import { connect, type StreamClient } from './support/ws-client.js';

interface Chunk {
  seq: number;
  stream: string;
  text: string;
  at: string;
}
interface Run {
  run_id: string;
  status: string;
  exit_code: number | null;
  detail: string | null;
  transcript_bytes: number;
  dropped_bytes: number;
  truncated: boolean;
}
interface Page {
  run: Run;
  chunks: Chunk[];
  next_after_seq: number;
  has_more: boolean;
}

const CAP = 2000;
const VOUCH_MS = 100;
const EXPECTED_LINES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');

let t: RuntimeTestApp;
let fakes: FakeAgents;
let base: string;

beforeAll(async () => {
  fakes = writeFakeAgents();
  t = await startRuntimeApp(
    {
      maxTranscriptBytes: CAP,
      vouchIntervalMs: VOUCH_MS,
      process: {
        providers: {
          lines: fakes.template('lines.mjs', '20 2'),
          flood: fakes.template('flood.mjs', '200'),
          stubborn: fakes.template('stubborn.mjs'),
        },
        gafferCommand: [process.execPath, 'gaffer.js'],
        killGraceSeconds: 1,
      },
    },
    { agentSandboxRead: [fakes.dir] },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `ws://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t?.runtime.supervisor.stopAll({ graceful: false });
  await t?.close();
  fakes?.remove();
});

const get = (url: string, headers: Record<string, string> = t.ceoHeaders) =>
  t.app.inject({ method: 'GET', url, headers });

/** Frames until (and with) the run's AGENT_STOPPED or AGENT_ERROR. */
async function framesUntilEnd(client: StreamClient): Promise<Record<string, unknown>[]> {
  const frames: Record<string, unknown>[] = [];
  for (;;) {
    const frame = (await client.next(10_000)) as Record<string, unknown>;
    frames.push(frame);
    if (frame.type === 'AGENT_STOPPED' || frame.type === 'AGENT_ERROR') return frames;
  }
}

async function runToEnd(slug: string, provider: string): Promise<string> {
  const { agent } = await t.runtime.supervisor.spawn('process', t.specFor(slug, { provider }));
  await t.runtime.supervisor.whenEnded(agent.agentId);
  return agent.runId;
}

/** Every chunk of a run, page by page. */
async function allChunks(agent: string, runId: string, limit: number): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  let after = 0;
  for (;;) {
    const response = await get(`/api/stream/${agent}/runs/${runId}?after_seq=${after}&limit=${limit}`);
    expect(response.statusCode).toBe(200);
    const page = response.json<Page>();
    chunks.push(...page.chunks);
    expect(page.chunks.length).toBeLessThanOrEqual(limit);
    after = page.next_after_seq;
    if (!page.has_more) return chunks;
  }
}

describe('agent output stream', () => {
  it('documents both routes, with their schemas, in a valid OpenAPI document', async () => {
    const document = (await t.app.inject({ url: '/docs/json' })).json();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    const runs = document.paths['/api/stream/{agent_id}']?.get;
    const page = document.paths['/api/stream/{agent_id}/runs/{run_id}']?.get;
    expect(runs).toMatchObject({ tags: ['stream'], responses: { 200: {}, 403: {}, 404: {}, 422: {} } });
    expect(page).toMatchObject({ tags: ['stream'], responses: { 200: {}, 403: {}, 404: {}, 422: {} } });
    expect(page.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'after_seq',
      'agent_id',
      'limit',
      'run_id',
    ]);
  });

  it('reaches a /ws/agents socket live and the transcript routes afterwards, in order', async () => {
    const agent = t.specFor('be-dev-1').agent;
    const { client, connected } = await connect(`${base}/ws/agents/${agent.id}?viewer_id=${agent.id}`);
    expect(connected).toMatchObject({ type: 'connected', agent_id: agent.id });
    const runId = await runToEnd('be-dev-1', 'lines');
    const frames = await framesUntilEnd(client);
    client.close();

    expect(frames[0]).toMatchObject({
      type: 'AGENT_SPAWNED',
      agent_id: agent.id,
      task_id: null,
      run_id: runId,
    });
    expect(frames.at(-1)).toMatchObject({
      type: 'AGENT_STOPPED',
      detail: 'exited with code 0',
      run_id: runId,
    });
    const output = frames.filter((frame) => frame.type === 'AGENT_OUTPUT');
    expect(output.length).toBe(frames.length - 2);
    expect(
      output
        .filter((frame) => frame.stream === 'stdout')
        .map((frame) => frame.text)
        .join(''),
    ).toBe(EXPECTED_LINES);
    expect(output.filter((frame) => frame.stream === 'stderr').map((frame) => frame.text)).toEqual([
      'note on stderr\n',
    ]);

    const runs = await get(`/api/stream/${agent.id}`);
    expect(runs.statusCode).toBe(200);
    expect(runs.json()).toMatchObject({ agent_id: agent.id, agent_slug: 'be-dev-1' });
    expect(runs.json().runs[0]).toMatchObject({
      run_id: runId,
      agent_id: agent.id,
      task_id: null,
      runtime: 'process',
      provider: 'lines',
      status: 'exited',
      exit_code: 0,
      signal: null,
      detail: 'exited with code 0',
      truncated: false,
      dropped_bytes: 0,
    });

    // Paged three at a time, the transcript is the same sequence the socket carried.
    const chunks = await allChunks('be-dev-1', runId, 3);
    expect(chunks.map((chunk) => chunk.seq)).toEqual(chunks.map((_, i) => i + 1));
    const printedChunks = chunks.filter((chunk) => chunk.stream !== 'system');
    expect(printedChunks.map((chunk) => chunk.text)).toEqual(output.map((frame) => frame.text));
    expect(printedChunks.map((chunk) => chunk.seq)).toEqual(output.map((frame) => frame.seq));
    expect(chunks.at(-1)).toMatchObject({ stream: 'system', text: 'exited with code 0\n' });
    expect(runs.json().runs[0].transcript_bytes).toBe(Buffer.byteLength(`${EXPECTED_LINES}note on stderr\n`));
  });

  it('shows a live run as running, its output so far readable, newest run first', async () => {
    const agent = t.specFor('be-dev-2').agent;
    const earlier = await runToEnd('be-dev-2', 'lines');
    const { agent: running } = await t.runtime.supervisor.spawn(
      'process',
      t.specFor('be-dev-2', { provider: 'stubborn' }),
    );
    await eventually(() => /ready \d+/.test(printed(t.events, agent.id)));
    await eventually(
      async () => (await get(`/api/stream/be-dev-2/runs/${running.runId}`)).json<Page>().chunks.length > 0,
    );

    const runs = (await get(`/api/stream/be-dev-2`)).json<{ runs: Run[] }>().runs;
    expect(runs.map((run) => [run.run_id, run.status])).toEqual([
      [running.runId, 'running'],
      [earlier, 'exited'],
    ]);
    const page = (await get(`/api/stream/be-dev-2/runs/${running.runId}`)).json<Page>();
    expect(page.run).toMatchObject({ status: 'running', exit_code: null });
    expect(page.chunks[0]?.text).toMatch(/^ready \d+\n$/);

    await t.runtime.supervisor.stop(agent.id, { graceful: false });
    const ended = (await get(`/api/stream/be-dev-2/runs/${running.runId}`)).json<Page>();
    expect(ended.run).toMatchObject({ status: 'killed', signal: 'SIGKILL', exit_code: null });
    expect((await get(`/api/stream/be-dev-2?limit=1`)).json<{ runs: Run[] }>().runs).toHaveLength(1);
  });

  it('keeps at most the cap per run, says so in the transcript, and still streams everything live', async () => {
    const agent = t.specFor('fe-dev-1').agent;
    const runId = await runToEnd('fe-dev-1', 'flood');
    const total = 200 * 100;
    await eventually(() => printed(t.events, agent.id).length === total);

    const page = (await get(`/api/stream/fe-dev-1/runs/${runId}?limit=1000`)).json<Page>();
    expect(page.run).toMatchObject({ status: 'exited', truncated: true });
    expect(page.run.transcript_bytes).toBeLessThanOrEqual(CAP);
    expect(page.run.transcript_bytes + page.run.dropped_bytes).toBe(total);
    const kept = page.chunks
      .filter((chunk) => chunk.stream === 'stdout')
      .map((chunk) => chunk.text)
      .join('');
    expect(Buffer.byteLength(kept)).toBe(page.run.transcript_bytes);
    expect(kept).toBe(printed(t.events, agent.id).slice(0, kept.length));
    const notes = page.chunks.filter((chunk) => chunk.stream === 'system').map((chunk) => chunk.text);
    expect(notes).toEqual([expect.stringContaining('[transcript truncated'), 'exited with code 0\n']);
  });

  it('lets the CEO and the agent itself read, refuses everyone else, and 404s what does not exist', async () => {
    const runId = (await get('/api/stream/be-dev-1')).json<{ runs: Run[] }>().runs[0]?.run_id as string;
    const self = t.headersFor('be-dev-1', 'developer', 'backend');
    const selfByUuid = t.headersFor(t.specFor('be-dev-1').agent.id, 'developer', 'backend');
    for (const headers of [t.ceoHeaders, self, selfByUuid]) {
      expect((await get('/api/stream/be-dev-1', headers)).statusCode).toBe(200);
      expect(
        (await get(`/api/stream/${t.specFor('be-dev-1').agent.id}/runs/${runId}`, headers)).statusCode,
      ).toBe(200);
    }
    const others = [
      t.headersFor('be-dev-2', 'developer', 'backend'),
      t.headersFor('be-pm', 'cell_pm', 'backend'),
      t.headersFor('main-pm', 'main_pm', 'main_pm'),
    ];
    for (const headers of others) {
      const runs = await get('/api/stream/be-dev-1', headers);
      expect(runs.statusCode).toBe(403);
      expect(runs.json().error.code).toBe('forbidden');
      expect((await get(`/api/stream/be-dev-1/runs/${runId}`, headers)).statusCode).toBe(403);
    }
    // A token that claims a role the agent does not have proves nothing about being that agent.
    expect((await get('/api/stream/be-dev-1', t.headersFor('be-dev-1', 'qa', 'backend'))).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/stream/be-dev-1' })).statusCode).toBe(401);

    const unknownAgent = await get('/api/stream/nobody-at-all');
    expect(unknownAgent.statusCode).toBe(404);
    expect(unknownAgent.json().error.code).toBe('not_found');
    expect((await get(`/api/stream/be-dev-1/runs/${randomUUID()}`)).statusCode).toBe(404);
    // Another agent's run is not found under this agent.
    expect((await get(`/api/stream/be-dev-2/runs/${runId}`)).statusCode).toBe(404);
    for (const url of [
      `/api/stream/be-dev-1/runs/not-a-uuid`,
      `/api/stream/be-dev-1/runs/${runId}?after_seq=-1`,
      `/api/stream/be-dev-1/runs/${runId}?limit=0`,
      `/api/stream/be-dev-1?limit=1000`,
      `/api/stream/be-dev-1?unknown=1`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(422);
      expect(response.json().error.code).toBe('validation_failed');
    }
  });

  it('prunes the runs that ended before the retention window and keeps the rest', async () => {
    const { agent: live } = await t.runtime.supervisor.spawn(
      'process',
      t.specFor('ux-dev-1', { provider: 'stubborn' }),
    );
    expect(await t.runtime.pruneTranscripts(30)).toEqual({ runs: 0 });
    const ended = (await get('/api/stream/be-dev-1')).json<{ runs: Run[] }>().runs.length;
    expect(ended).toBeGreaterThan(0);

    const inThreeDays = new Date(Date.now() + 3 * 86_400_000);
    const pruned = await pruneTranscripts(t.platform.database.db, { now: inThreeDays, retentionDays: 2 });
    expect(pruned.runs).toBeGreaterThanOrEqual(ended);
    expect((await get('/api/stream/be-dev-1')).json().runs).toEqual([]);
    expect((await get('/api/stream/ux-dev-1')).json().runs.map((run: Run) => run.run_id)).toEqual([
      live.runId,
    ]);
    await expect(
      pruneTranscripts(t.platform.database.db, { now: inThreeDays, retentionDays: 0 }),
    ).rejects.toThrow(RangeError);
    await t.runtime.supervisor.stop(live.agentId, { graceful: false });
  });

  it('closes as lost a run its server stopped vouching for, and keeps the live ones running', async () => {
    const { agent: live } = await t.runtime.supervisor.spawn(
      'process',
      t.specFor('fe-dev-1', { provider: 'stubborn' }),
    );
    // A run left open by a server that was killed three minutes ago.
    const orphan = randomUUID();
    const gone = new Date(Date.now() - 3 * 60_000);
    const orphanAgent = t.specFor('be-qa').agent.id;
    await t.platform.database.db.insert(agentRuns).values({
      id: orphan,
      agentId: orphanAgent,
      taskId: null,
      runtime: 'process',
      provider: 'fake',
      model: null,
      startedAt: gone,
      seenAt: gone,
    });
    await new Promise((resolve) => setTimeout(resolve, 3 * VOUCH_MS));

    expect(await t.scheduler.runNow(LOST_RUNS_LOOP)).toEqual({ status: 'succeeded' });
    const lost = (await get(`/api/stream/be-qa/runs/${orphan}`)).json<Page>().run;
    expect(lost).toMatchObject({ status: 'lost', detail: LOST_RUN_DETAIL });
    await eventually(() =>
      t.events.some(
        (event) =>
          event.type === 'AGENT_ERROR' &&
          (event.data as { run_id?: string; detail?: string }).run_id === orphan &&
          (event.data as { detail?: string }).detail === LOST_RUN_DETAIL,
      ),
    );
    const running = (await get(`/api/stream/fe-dev-1/runs/${live.runId}`)).json<Page>().run;
    expect(running.status).toBe('running');
    // Its supervisor keeps vouching for it while it runs.
    const [row] = await t.platform.database.db
      .select({ startedAt: agentRuns.startedAt, seenAt: agentRuns.seenAt })
      .from(agentRuns)
      .where(eq(agentRuns.id, live.runId));
    expect(row!.seenAt!.getTime()).toBeGreaterThan(row!.startedAt.getTime());
    await t.runtime.supervisor.stop(live.agentId, { graceful: false });
  });
});
