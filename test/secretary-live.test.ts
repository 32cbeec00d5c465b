/**
 * The secretary's live chat over real server-sent events and its directive queue: a charter change
 * the model proposes through its tool becomes a pending directive (shown on the stream) that changes
 * nothing until the CEO confirms it, then the charter has changed; a task control rejected leaves
 * the task alone; deciding twice is a 409; a relayed message goes out at once; a pitch approval
 * without the pitches module fails with a clear message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { insertProject, insertTask } from './fixtures-task-rows.js';
import { json, type TestApp } from './support/app.js';
import { startAppWithFlags } from './support/engines.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { listenHttp, routeFakeProvider } from './support/live-chat.js';
import { openSse, type SseClient } from './support/sse-client.js';

const LIVE = '/api/secretary/live';

interface Directive {
  id: string;
  kind: string;
  status: string;
  payload: Record<string, unknown>;
  error: string | null;
  reject_reason: string | null;
}

let t: TestApp;
let fake: FakeLlm;
let base: string;
let stream: SseClient;
let sid: string;

beforeAll(async () => {
  t = await startAppWithFlags(['provisioning']);
  fake = await startFakeLlm();
  base = await listenHttp(t);
});
afterAll(async () => {
  stream?.close();
  await t.close();
  await fake.close();
});

const post = (url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: t.ceoHeaders, ...(payload ? { payload } : {}) });
const get = (url: string, headers = t.ceoHeaders) => t.app.inject({ method: 'GET', url, headers });
const directives = async (status?: string) =>
  json<{ directives: Directive[] }>(
    await get(`/api/secretary/directives${status ? `?status=${status}` : ''}`),
  ).directives;

/** One CEO turn in which the model calls `tool` once, then says it is done; the directive event. */
async function turnWithTool(name: string, input: Record<string, unknown>) {
  fake.script(
    { kind: 'reply', text: 'On it.', toolUses: [{ name, input }] },
    { kind: 'reply', text: 'Done; see the directive queue.' },
  );
  const mark = stream.events.length;
  expect((await post(`${LIVE}/${sid}/messages`, { text: `please ${name}` })).statusCode).toBe(202);
  const shown = await stream.waitFor((e) => e.event === 'directive', 5000, mark);
  await stream.waitFor((e) => e.event === 'turn_end', 5000, mark);
  return shown.data as unknown as Directive;
}

describe('secretary live chat and directives', () => {
  it('answers 409 no_model_provider while no provider is routed', async () => {
    const refused = await post(`${LIVE}/start`, {});
    expect(refused.statusCode).toBe(409);
    expect(json<{ error: { code: string } }>(refused).error.code).toBe('no_model_provider');
    await routeFakeProvider(t, fake);
    sid = json<{ session_id: string }>(await post(`${LIVE}/start`, {})).session_id;
    stream = await openSse(`${base}${LIVE}/${sid}/stream`, t.ceoHeaders);
    await stream.waitFor((e) => e.event === 'ready');
  });

  it('a proposed charter change waits as a pending directive; confirming changes the charter', async () => {
    const shown = await turnWithTool('update_charter', {
      changes: { north_star: 'Ship a release every week' },
      rationale: 'The CEO asked for a weekly cadence.',
    });
    expect(shown).toMatchObject({ kind: 'update_charter', status: 'pending' });
    expect((await directives('pending')).map((d) => d.id)).toEqual([shown.id]);
    expect(json<{ north_star: string }>(await get('/api/company-goals')).north_star).toBe('');

    const confirmed = await post(`/api/secretary/directives/${shown.id}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(json<Directive>(confirmed).status).toBe('executed');
    const charter = json<{ north_star: string; updated_by: string }>(await get('/api/company-goals'));
    expect(charter).toMatchObject({ north_star: 'Ship a release every week', updated_by: 'ceo' });

    const again = await post(`/api/secretary/directives/${shown.id}/confirm`);
    expect(again.statusCode).toBe(409);
    expect(json<{ error: { code: string } }>(again).error.code).toBe('directive_not_pending');
  });

  it('a rejected task control leaves the task alone and cannot be confirmed afterwards', async () => {
    const projectId = await insertProject(t.platform.database.db, 'shop');
    const task = await insertTask(t.platform.database.db, { projectId, status: 'pending' });
    const shown = await turnWithTool('control_task', {
      task_id: task.id,
      action: 'cancel',
      rationale: 'Superseded by the new checkout.',
    });
    const rejected = await post(`/api/secretary/directives/${shown.id}/reject`, { reason: 'keep it' });
    expect(rejected.statusCode).toBe(200);
    expect(json<Directive>(rejected)).toMatchObject({ status: 'rejected', reject_reason: 'keep it' });
    expect((await post(`/api/secretary/directives/${shown.id}/confirm`)).statusCode).toBe(409);
    expect((await post(`/api/secretary/directives/${shown.id}/reject`, {})).statusCode).toBe(409);
    expect(json<{ status: string }>(await get(`/api/tasks/${task.id}`)).status).toBe('pending');

    const cancel = await turnWithTool('control_task', {
      task_id: task.id,
      action: 'cancel',
      rationale: 'now yes',
    });
    expect(json<Directive>(await post(`/api/secretary/directives/${cancel.id}/confirm`)).status).toBe(
      'executed',
    );
    expect(json<{ status: string }>(await get(`/api/tasks/${task.id}`)).status).toBe('cancelled');
  });

  it('a relayed message goes out at once', async () => {
    const shown = await turnWithTool('relay_message', {
      to: 'be-dev-1',
      subject: 'From the CEO',
      text: 'Please prioritise the login bug.',
    });
    expect(shown).toMatchObject({ kind: 'relay_message', status: 'executed' });
    const inbox = json<{ notifications: { subject: string }[] }>(
      await get('/api/notifications', t.headersFor('be-dev-1', 'developer', 'backend')),
    );
    expect(inbox.notifications.map((n) => n.subject)).toContain('From the CEO');
  });

  it('a confirmed announcement reaches the whole roster', async () => {
    const shown = await turnWithTool('announce', {
      subject: 'Release freeze Friday',
      body: 'No merges to main after 12:00 UTC on Friday.',
      rationale: 'The CEO wants a quiet weekend.',
    });
    const confirmed = json<Directive & { result: { recipients: number } }>(
      await post(`/api/secretary/directives/${shown.id}/confirm`),
    );
    expect(confirmed.status, confirmed.error ?? '').toBe('executed');
    expect(confirmed.result.recipients).toBeGreaterThan(10);
    const inbox = json<{ notifications: { subject: string }[] }>(
      await get('/api/notifications', t.headersFor('main-pm', 'main_pm', 'main_pm')),
    );
    expect(inbox.notifications.map((n) => n.subject)).toContain('Release freeze Friday');
  });

  it('a confirmed pitch directive approves the pitch as the CEO: its project exists', async () => {
    const owner = rosterMember('product-owner');
    const proposed = await t.app.inject({
      method: 'POST',
      url: '/api/pitches',
      headers: t.headersFor(owner.id, owner.role, owner.team ?? ''),
      payload: {
        title: 'Gift cards',
        slug: 'gift-cards',
        problem: 'Customers cannot give the shop as a present.',
        proposal: 'Sell gift cards redeemable at checkout.',
        target_cells: ['backend'],
      },
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const pitchId = json<{ id: string }>(proposed).id;
    const shown = await turnWithTool('approve_pitch', {
      pitch_id: pitchId,
      notes: 'go',
      rationale: 'The board agreed.',
    });
    const pitch = async () =>
      json<{ status: string; project_ids: string[] }>(await get(`/api/pitches/${pitchId}`));
    expect((await pitch()).status).toBe('proposed');
    const confirmed = json<Directive>(await post(`/api/secretary/directives/${shown.id}/confirm`));
    expect(confirmed.status, confirmed.error ?? '').toBe('executed');
    const approved = await pitch();
    expect(approved.status).toBe('provisioned');
    expect(approved.project_ids).toHaveLength(1);
  });

  it('the queue is the CEO’s alone; unknown directives are a 404', async () => {
    const asPm = await get('/api/secretary/directives', t.headersFor('main-pm', 'main_pm', 'main_pm'));
    expect(asPm.statusCode).toBe(403);
    const unknown = await post('/api/secretary/directives/00000000-0000-4000-8000-000000000000/confirm');
    expect(unknown.statusCode).toBe(404);
    expect((await get('/api/secretary/directives?status=nope')).statusCode).toBe(422);
  });
});
