/**
 * The intake interviewer's live chat over real server-sent events: a listening app, an HTTP client
 * reading the stream, the fake provider scripted to ask, then propose a task through its tool. The
 * CEO confirms and the task exists, routed to the main PM; a second stream replays the turns; stop
 * and idle reaping end a session (messages then 409); without a provider, start is a 409.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeClock } from '../src/platform/clock.js';
import { insertProject } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { listenHttp, routeFakeProvider } from './support/live-chat.js';
import { openSse, type SseClient } from './support/sse-client.js';

const LIVE = '/api/prompter/live';
const DRAFT = {
  title: 'Export invoices as CSV',
  description: 'Customers need to download their invoices as a CSV file from the billing page.',
  acceptance_criteria: ['A CSV download button is on the billing page', 'The CSV has one row per invoice'],
  team: 'backend',
  type: 'code',
};

let t: TestApp;
let fake: FakeLlm;
let base: string;
let projectId: string;
const clock = fakeClock(new Date());
const streams: SseClient[] = [];

beforeAll(async () => {
  t = await startTestApp({ clock });
  fake = await startFakeLlm();
  base = await listenHttp(t);
  projectId = await insertProject(t.platform.database.db, 'billing');
});
afterAll(async () => {
  for (const s of streams) s.close();
  await t.close();
  await fake.close();
});

const post = (url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: t.ceoHeaders, ...(payload ? { payload } : {}) });
const stream = async (sid: string) => {
  const client = await openSse(`${base}${LIVE}/${sid}/stream`, t.ceoHeaders);
  streams.push(client);
  return client;
};
const start = async () => {
  const started = await post(`${LIVE}/start`, { project_id: projectId });
  expect(started.statusCode, started.body).toBe(201);
  return json<{ session_id: string }>(started).session_id;
};

describe('intake interviewer live chat', () => {
  it('answers 409 no_model_provider with the remediation while no provider is routed', async () => {
    const refused = await post(`${LIVE}/start`, { project_id: projectId });
    expect(refused.statusCode).toBe(409);
    const { error } = json<{ error: { code: string; remediate?: string } }>(refused);
    expect(error.code).toBe('no_model_provider');
    expect(error.remediate).toMatch(/\/api\/providers/);
    await routeFakeProvider(t, fake);
  });

  it('refuses a bad scope, an unknown session and a non-CEO caller', async () => {
    expect((await post(`${LIVE}/start`, {})).statusCode).toBe(422);
    expect((await post(`${LIVE}/start`, { project_id: 'no-such-project' })).statusCode).toBe(422);
    expect((await post(`${LIVE}/abc123/messages`, { text: 'hi' })).statusCode).toBe(404);
    const asPm = await t.app.inject({
      method: 'POST',
      url: `${LIVE}/start`,
      headers: t.headersFor('main-pm', 'main_pm', 'main_pm'),
      payload: { project_id: projectId },
    });
    expect(asPm.statusCode).toBe(403);
  });

  let sid: string;
  let first: SseClient;

  it('streams the question, then the proposed draft, over real SSE', async () => {
    sid = await start();
    first = await stream(sid);
    expect(first.status).toBe(200);
    expect(first.contentType).toMatch(/text\/event-stream/);
    await first.waitFor((e) => e.event === 'ready');

    fake.script({ kind: 'reply', text: ['Who', ' needs', ' the export?'] });
    expect((await post(`${LIVE}/${sid}/messages`, { text: 'We need invoice exports.' })).statusCode).toBe(
      202,
    );
    await first.waitFor((e) => e.event === 'turn_end');
    const deltas = first.events.filter((e) => e.event === 'text_delta').map((e) => e.data.text);
    expect(deltas.join('')).toBe('Who needs the export?');

    fake.script(
      {
        kind: 'reply',
        text: ['Here is', ' the draft.'],
        toolUses: [{ id: 'call_9', name: 'propose_task', input: DRAFT }],
      },
      { kind: 'reply', text: 'Confirm it when ready.' },
    );
    const mark = first.events.length;
    expect((await post(`${LIVE}/${sid}/messages`, { text: 'Customers, as CSV.' })).statusCode).toBe(202);
    const draft = await first.waitFor((e) => e.event === 'draft', 5000, mark);
    expect(draft.data.task).toMatchObject({ title: DRAFT.title, team: 'backend' });
    expect(
      first.events.slice(mark).some((e) => e.event === 'tool_use' && e.data.name === 'propose_task'),
    ).toBe(true);
    await first.waitFor((e) => e.event === 'turn_end', 5000, mark);

    // The model heard the whole chat, its tool use answered, on the follow-up request.
    const last = fake.requests.at(-1)!.body as { messages: { role: string; tool_call_id?: string }[] };
    expect(last.messages.some((m) => m.role === 'tool' && m.tool_call_id === 'call_9')).toBe(true);

    const status = json<{ status: string; turns: number; draft: { kind: string } }>(
      await t.app.inject({ method: 'GET', url: `${LIVE}/${sid}/status`, headers: t.ceoHeaders }),
    );
    expect(status).toMatchObject({ status: 'active', draft: { kind: 'task' } });
    expect(status.turns).toBeGreaterThanOrEqual(7);
  });

  it('replays the persisted turns to a second stream (a page reload)', async () => {
    const active = await t.app.inject({ method: 'GET', url: `${LIVE}/active`, headers: t.ceoHeaders });
    expect(json(active)).toEqual({ active: true, session_id: sid });
    const reload = await stream(sid);
    await reload.waitFor((e) => e.event === 'ready');
    const kinds = reload.events.map((e) => e.event);
    expect(kinds.slice(0, 4)).toEqual(['user', 'text', 'user', 'text']);
    expect(kinds).toContain('draft');
    expect(reload.events.find((e) => e.event === 'text')?.data.text).toBe('Who needs the export?');
    reload.close();
  });

  it('shows a reply once to a stream that attaches while the reply is being written', async () => {
    // The worst moment to attach: the stream has started, and the reply's text is written as a turn
    // while the attaching stream reads the persisted ones.
    const store = t.modules.prompter.chat.bridge.store;
    const append = store.append.bind(store);
    const turns = store.turns.bind(store);
    let textWritten!: () => void;
    const written = new Promise<void>((resolve) => {
      textWritten = resolve;
    });
    vi.spyOn(store, 'append').mockImplementation(async (...args) => {
      const turn = await append(...args);
      if (args[1] === 'text') textWritten();
      return turn;
    });
    fake.script({ kind: 'reply', text: ['Got it.', ' Here is', ' a draft.'], chunkDelayMs: 30 });
    const mark = first.events.length;
    expect((await post(`${LIVE}/${sid}/messages`, { text: 'Any format is fine.' })).statusCode).toBe(202);
    await first.waitFor((e) => e.event === 'text_delta', 5000, mark);
    vi.spyOn(store, 'turns').mockImplementationOnce(async (id) => {
      await written;
      return turns(id);
    });
    const late = await stream(sid);
    await late.waitFor((e) => e.event === 'turn_end');
    vi.restoreAllMocks();

    const lastUser = late.events.findLastIndex((e) => e.event === 'user');
    expect(late.events[lastUser]?.data.text).toBe('Any format is fine.');
    const shown = late.events
      .slice(lastUser)
      .filter((e) => e.event === 'text' || e.event === 'text_delta')
      .map((e) => e.data.text)
      .join('');
    expect(shown).toBe('Got it. Here is a draft.');
    late.close();
  });

  it('confirms the draft with edits: the task exists, routed to the main PM', async () => {
    const confirmed = await post(`${LIVE}/${sid}/confirm`, { draft: { title: 'Export invoices to CSV' } });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const body = json<{ route: string; task_ids: string[] }>(confirmed);
    expect(body.route).toBe('main_pm');
    expect(body.task_ids).toHaveLength(1);
    const task = json<Record<string, unknown>>(
      await t.app.inject({ method: 'GET', url: `/api/tasks/${body.task_ids[0]}`, headers: t.ceoHeaders }),
    );
    expect(task).toMatchObject({
      title: 'Export invoices to CSV',
      team: 'main_pm',
      task_type: 'planning',
      project_id: projectId,
      source: 'prompter',
    });
    await first.waitFor((e) => e.event === 'created');
    // Nothing is proposed any more: a second confirm is a 409.
    const again = await post(`${LIVE}/${sid}/confirm`, {});
    expect(again.statusCode).toBe(409);
    expect(json<{ error: { code: string } }>(again).error.code).toBe('no_draft');
  });

  it('stop ends the session: the stream closes and a message is a 409', async () => {
    expect((await post(`${LIVE}/${sid}/stop`)).statusCode).toBe(200);
    await first.waitFor((e) => e.event === 'ended');
    await first.closed;
    const refused = await post(`${LIVE}/${sid}/messages`, { text: 'one more thing' });
    expect(refused.statusCode).toBe(409);
    expect(json<{ error: { code: string } }>(refused).error.code).toBe('session_ended');
  });

  it('confirm with no draft is a 409', async () => {
    const fresh = await start();
    const refused = await post(`${LIVE}/${fresh}/confirm`, {});
    expect(refused.statusCode).toBe(409);
    expect(json<{ error: { code: string } }>(refused).error.code).toBe('no_draft');
  });

  it('the reaper ends a session idle longer than the setting', async () => {
    const idle = await start();
    const busy = await start();
    clock.advance(t.platform.config.liveChatIdleSeconds * 1000 - 1000);
    fake.script({ kind: 'reply', text: 'Tell me more.' });
    expect((await post(`${LIVE}/${busy}/messages`, { text: 'still here' })).statusCode).toBe(202);
    clock.advance(2000);
    expect((await t.scheduler.runNow('prompter.live-reap')).status).toBe('succeeded');
    const statusOf = async (id: string) =>
      json<{ status: string; ended_reason: string | null }>(
        await t.app.inject({ method: 'GET', url: `${LIVE}/${id}/status`, headers: t.ceoHeaders }),
      );
    expect(await statusOf(idle)).toMatchObject({ status: 'ended', ended_reason: 'idle' });
    expect((await statusOf(busy)).status).toBe('active');
    expect((await post(`${LIVE}/${idle}/messages`, { text: 'hello?' })).statusCode).toBe(409);
  });
});
