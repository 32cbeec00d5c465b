/**
 * Provider rate-limit parking end to end, through the real app and real agent processes: an agent
 * CLI routed to a fake OpenAI-compatible provider gets a 429 with Retry-After and prints the error
 * event → the provider is parked (RATE_LIMIT_HIT on a real /ws/system socket, the agent waiting,
 * its task untouched), `GET /api/system/rate-limits` lists it, the dispatcher starts nothing on it;
 * the probe waits for the window, then succeeds → RATE_LIMIT_LIFTED, the agent resumes and the
 * held work is spawned.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PassSummary } from '../src/modules/dispatch/index.js';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { eventually } from '../src/modules/runtime/test-fake-agents.js';
import { RATE_LIMIT_PROBE_LOOP } from '../src/modules/system/index.js';
import { fakeClock } from '../src/platform/clock.js';
import { json } from './support/app.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { openStream, type StreamClient } from './support/ws-client.js';

/** An agent CLI: asks its routed model once, prints a Codex-style error event on a 429, then waits. */
const AGENT = `
const base = process.env.OPENAI_BASE_URL;
const response = await fetch(base + '/chat/completions', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + process.env.OPENAI_API_KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ model: process.env.GAFFER_MODEL, messages: [{ role: 'user', content: 'hi' }] }),
});
if (response.status === 429) {
  const body = await response.json();
  console.log(JSON.stringify({
    type: 'error',
    message: '429 Too Many Requests: ' + body.error.message,
    retry_after: Number(response.headers.get('retry-after')),
  }));
} else console.log('model answered ' + response.status);
process.on('SIGTERM', () => process.exit(0));
setInterval(() => {}, 1000);
`;

const clock = fakeClock(new Date('2026-03-02T09:00:00.000Z'));
let t: DispatchTestApp;
let fake: FakeLlm;
let dir: string;
let system: StreamClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gaffer-rate-limits-'));
  writeFileSync(join(dir, 'agent.mjs'), AGENT);
  fake = await startFakeLlm();
  t = await startDispatchApp({
    clock,
    config: {
      agentCommandCustom: `"${process.execPath}" "${join(dir, 'agent.mjs')}" {agent_slug}`,
      agentSandboxRead: [dir],
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const outcome = await openStream(`ws://127.0.0.1:${address.port}/ws/system`);
  if (outcome.kind !== 'open') throw new Error('the system stream refused');
  system = outcome.client;
});
afterAll(async () => {
  system?.ws.terminate();
  await t?.runtime.supervisor.stopAll({ graceful: false });
  await t?.close();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ceo = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: t.ceoHeaders, ...(payload ? { payload } : {}) });

/** The next /ws/system frame of `type` (earlier frames of other types are passed over). */
async function nextFrame(type: string): Promise<Record<string, unknown>> {
  for (;;) {
    const frame = (await system.next(10_000)) as Record<string, unknown>;
    if (frame.type === type) return frame;
  }
}

const runOf = (slug: string) => t.runtime.supervisor.list().find((run) => run.agentSlug === slug);
const lastPass = async () =>
  json<{ last_pass: PassSummary }>(await ceo('GET', '/api/orchestrator/dispatcher')).last_pass;

describe('a provider answering 429 is parked until the probe finds it well again', () => {
  it('parks, holds, lists, probes after the window, lifts and resumes', async () => {
    expect(
      (
        await ceo('POST', '/api/providers', {
          name: 'fakeai',
          kind: 'openai',
          base_url: `${fake.url}/v1`,
          default_model: 'fake-small',
          api_key: 'test-key',
        })
      ).statusCode,
    ).toBe(201);
    expect((await ceo('PUT', '/api/providers/routing', { global: { provider: 'fakeai' } })).statusCode).toBe(
      200,
    );
    fake.script({ kind: 'rate_limited', retryAfter: '120' });

    const first = await t.insertTask({ team: 'backend', assignedTo: t.idOf('be-dev-1') });
    expect(await t.runLoop('dispatch.tick')).toBe('succeeded');
    expect(runOf('be-dev-1')?.taskId).toBe(first.id);

    // The agent's CLI printed the 429: the provider is parked, on the live socket.
    const hit = await nextFrame('RATE_LIMIT_HIT');
    const entry = {
      provider: 'fakeai',
      kind: 'rate_limited',
      affected_agents: ['be-dev-1'],
      hit_at: '2026-03-02T09:00:00.000Z',
      resume_at: '2026-03-02T09:02:00.000Z',
      retry_after_seconds: 120,
      probe_failures: 0,
    };
    expect(hit).toEqual({ type: 'RATE_LIMIT_HIT', ...entry });
    await eventually(() => runOf('be-dev-1')?.waiting?.detail?.startsWith('rate_limit:') === true);
    expect((await t.task(first.id)).status).toBe('pending');

    // Anyone signed in reads it back (the polling fallback).
    const dev = t.headersFor(t.idOf('be-dev-2'), 'developer', 'backend');
    const listed = await t.app.inject({ url: '/api/system/rate-limits', headers: dev });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ entries: [entry] });
    expect((await t.app.inject({ url: '/api/system/rate-limits' })).statusCode).toBe(401);

    // The dispatcher starts nothing on the parked provider.
    const held = await t.insertTask({ team: 'backend', assignedTo: t.idOf('be-dev-2') });
    expect(await t.runLoop('dispatch.tick')).toBe('succeeded');
    expect((await lastPass()).skipped).toContainEqual({
      task_id: held.id,
      reason: 'be-dev-2 waits for rate-limited provider fakeai',
    });
    expect(runOf('be-dev-2')).toBeUndefined();

    // Inside the window the probe leaves it alone (and does not call the provider).
    const calls = fake.requests.length;
    expect(await t.runLoop(RATE_LIMIT_PROBE_LOOP)).toBe('succeeded');
    expect(fake.requests.length).toBe(calls);
    expect((await t.app.inject({ url: '/api/system/rate-limits', headers: dev })).json()).toEqual({
      entries: [entry],
    });

    // After it, the probe's completion succeeds: lifted, the agent resumes, the held work starts.
    clock.advance(121_000);
    expect(await t.runLoop(RATE_LIMIT_PROBE_LOOP)).toBe('succeeded');
    expect(fake.requests.length).toBe(calls + 1);
    expect(await nextFrame('RATE_LIMIT_LIFTED')).toEqual({
      type: 'RATE_LIMIT_LIFTED',
      provider: 'fakeai',
      resumed_agents: ['be-dev-1'],
      lifted_at: '2026-03-02T09:02:01.000Z',
    });
    await eventually(() => runOf('be-dev-1') !== undefined && runOf('be-dev-1')!.waiting === null);
    expect((await t.app.inject({ url: '/api/system/rate-limits', headers: dev })).json()).toEqual({
      entries: [],
    });
    await eventually(() => runOf('be-dev-2')?.taskId === held.id);
  }, 30_000);
});
