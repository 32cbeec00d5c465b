/**
 * /api/a2a through the whole app: open (access matrix), list with filters, read, write, page,
 * read marks and the inbox, close; participant scoping, validation, unknown ids, no token.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  a2aClient,
  type ConversationBody,
  type ErrorBody,
  type MessageBody,
  type PageBody,
} from '../src/modules/a2a/test-client.js';
import { rosterMember } from '../src/modules/agents/index.js';
import { insertProject, insertTask } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let c: ReturnType<typeof a2aClient>;

beforeAll(async () => {
  t = await startTestApp();
  c = a2aClient(t);
});
afterAll(() => t.close());

describe('opening a conversation', () => {
  it('opens one the matrix allows, by slug or UUID, with its first message', async () => {
    const response = await c.post('/api/a2a/conversations', 'be-dev-1', {
      target_agent: 'be-qa',
      topic: 'flaky test',
      initial_message: 'can you rerun the suite?',
      requires_response: true,
    });
    expect(response.statusCode).toBe(201);
    const conversation = response.json<ConversationBody>();
    expect(conversation).toMatchObject({
      participant_a: { slug: 'be-dev-1', role: 'developer', team: 'backend' },
      participant_b: { slug: 'be-qa', role: 'qa' },
      topic: 'flaky test',
      task_id: null,
      status: 'open',
      created_by: rosterMember('be-dev-1').id,
      message_count: 1,
    });
    const page = (
      await c.get(`/api/a2a/conversations/${conversation.id}/messages`, 'be-qa')
    ).json<PageBody>();
    expect(page.messages).toHaveLength(1);
    expect(page.messages[0]).toMatchObject({
      body: 'can you rerun the suite?',
      kind: 'request',
      requires_response: true,
      sender_slug: 'be-dev-1',
    });

    const byUuid = await c.open('be-pm', rosterMember('fe-pm').id, 'sync on the API contract');
    expect(byUuid.participant_b.slug).toBe('fe-pm');
  });

  it('refuses what the matrix forbids with 403 a2a_access_denied and a route hint', async () => {
    const response = await c.post('/api/a2a/conversations', 'be-dev-1', {
      target_agent: 'fe-dev-1',
      initial_message: 'hi from backend',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorBody>().error).toMatchObject({
      code: 'a2a_access_denied',
      details: {
        route_hint: 'developer(backend) → cell_pm(backend) → cell_pm(frontend) → developer(frontend)',
        sender_role: 'developer',
        recipient_role: 'developer',
      },
    });
    const toCeo = await c.post('/api/a2a/conversations', 'main-pm', {
      target_agent: 'ceo',
      initial_message: 'hi',
    });
    expect(toCeo.statusCode).toBe(403);
    expect(toCeo.json<ErrorBody>().error.code).toBe('a2a_access_denied');
    const fromAuditor = await c.post('/api/a2a/conversations', 'auditor', {
      target_agent: 'main-pm',
      initial_message: 'hi',
    });
    expect(fromAuditor.statusCode).toBe(403);
    const ceoToSecretary = await c.post('/api/a2a/conversations', 'ceo', {
      target_agent: 'secretary-1',
      initial_message: 'hi',
    });
    expect(ceoToSecretary.statusCode).toBe(403);
  });

  it('ties a conversation to a task, and 404s an unknown task or agent', async () => {
    const projectId = await insertProject(t.platform.database.db);
    const task = await insertTask(t.platform.database.db, { projectId });
    const conversation = await c.open('be-pm', 'be-dev-2', 'please pick this up', { task_id: task.id });
    expect(conversation.task_id).toBe(task.id);

    const unknownTask = await c.post('/api/a2a/conversations', 'be-pm', {
      target_agent: 'be-dev-2',
      task_id: randomUUID(),
      initial_message: 'x',
    });
    expect(unknownTask.statusCode).toBe(404);
    const unknownAgent = await c.post('/api/a2a/conversations', 'be-pm', {
      target_agent: 'nobody-here',
      initial_message: 'x',
    });
    expect(unknownAgent.statusCode).toBe(404);
  });

  it('validates the body: 422 for an empty or 10,001-character message, extra fields, self', async () => {
    const open = (payload: object) => c.post('/api/a2a/conversations', 'be-dev-1', payload);
    expect((await open({ target_agent: 'be-qa', initial_message: '' })).statusCode).toBe(422);
    expect((await open({ target_agent: 'be-qa', initial_message: 'x'.repeat(10_001) })).statusCode).toBe(422);
    expect((await open({ target_agent: 'be-qa', initial_message: 'x'.repeat(10_000) })).statusCode).toBe(201);
    expect((await open({ target_agent: 'be-qa' })).statusCode).toBe(422);
    expect((await open({ target_agent: 'be-qa', initial_message: 'x', extra: 1 })).statusCode).toBe(422);
    const self = await open({ target_agent: 'be-dev-1', initial_message: 'me' });
    expect(self.statusCode).toBe(422);
    expect(self.json<ErrorBody>().error.code).toBe('cannot_message_self');
  });

  it('is 401 without a token, and 403 not_an_agent for an identity outside the roster', async () => {
    expect(
      (await c.post('/api/a2a/conversations', null, { target_agent: 'be-qa', initial_message: 'x' }))
        .statusCode,
    ).toBe(401);
    expect((await c.get('/api/a2a/conversations', null)).statusCode).toBe(401);
    expect((await c.get('/api/a2a/inbox', null)).statusCode).toBe(401);
    const stranger = await t.app.inject({
      method: 'GET',
      url: '/api/a2a/inbox',
      headers: t.headersFor('not-in-roster', 'developer', 'backend'),
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json<ErrorBody>().error.code).toBe('not_an_agent');
  });
});

describe('inside a conversation', () => {
  it('lets both participants write, read and page; others get 403, unknown ids 404', async () => {
    const conversation = await c.open('be-pm', 'be-qa', 'message 0');
    for (let i = 1; i <= 4; i++) {
      const from = i % 2 === 0 ? 'be-pm' : 'be-qa';
      const sent = await c.send(from, conversation.id, `message ${i}`);
      expect(sent.statusCode).toBe(201);
      expect(sent.json<{ message: MessageBody; duplicate: boolean }>()).toMatchObject({
        duplicate: false,
        message: { body: `message ${i}`, sender_slug: from, kind: 'message' },
      });
    }
    const url = `/api/a2a/conversations/${conversation.id}/messages`;
    const first = (await c.get(`${url}?limit=2`, 'be-pm')).json<PageBody>();
    expect(first.messages.map((m) => m.body)).toEqual(['message 3', 'message 4']);
    expect(first.has_more).toBe(true);
    const second = (await c.get(`${url}?limit=2&before=${first.next_before}`, 'be-qa')).json<PageBody>();
    expect(second.messages.map((m) => m.body)).toEqual(['message 1', 'message 2']);
    const third = (await c.get(`${url}?limit=2&before=${second.next_before}`, 'be-qa')).json<PageBody>();
    expect(third).toMatchObject({ has_more: false, next_before: null });
    expect(third.messages.map((m) => m.body)).toEqual(['message 0']);

    expect((await c.get(`${url}?limit=0`, 'be-pm')).statusCode).toBe(422);
    expect((await c.get(`${url}?limit=501`, 'be-pm')).statusCode).toBe(422);
    expect((await c.get(`${url}?before=${randomUUID()}`, 'be-pm')).statusCode).toBe(422);

    for (const outsider of ['be-dev-1', 'ceo'] as const) {
      const read = await c.get(`/api/a2a/conversations/${conversation.id}`, outsider);
      expect(read.statusCode).toBe(403);
      expect(read.json<ErrorBody>().error.code).toBe('not_a_participant');
      expect((await c.get(url, outsider)).statusCode).toBe(403);
      expect((await c.send(outsider, conversation.id, 'let me in')).statusCode).toBe(403);
      expect((await c.post(`/api/a2a/conversations/${conversation.id}/read`, outsider)).statusCode).toBe(403);
      expect((await c.post(`/api/a2a/conversations/${conversation.id}/close`, outsider)).statusCode).toBe(
        403,
      );
    }

    const missing = randomUUID();
    expect((await c.get(`/api/a2a/conversations/${missing}`, 'be-pm')).statusCode).toBe(404);
    expect((await c.get(`/api/a2a/conversations/${missing}/messages`, 'be-pm')).statusCode).toBe(404);
    expect((await c.send('be-pm', missing, 'hello?')).statusCode).toBe(404);
    expect((await c.post(`/api/a2a/conversations/${missing}/read`, 'be-pm')).statusCode).toBe(404);
    expect((await c.get('/api/a2a/conversations/not-a-uuid', 'be-pm')).statusCode).toBe(422);
  });

  it('validates messages: 422 empty, 10,001 characters, a response without a target', async () => {
    const conversation = await c.open('be-pm', 'be-dev-1', 'start');
    expect((await c.send('be-dev-1', conversation.id, '')).statusCode).toBe(422);
    expect((await c.send('be-dev-1', conversation.id, 'y'.repeat(10_001))).statusCode).toBe(422);
    expect((await c.send('be-dev-1', conversation.id, 'z', { kind: 'shout' })).statusCode).toBe(422);
    expect((await c.send('be-dev-1', conversation.id, 'answer', { kind: 'response' })).statusCode).toBe(422);
  });

  it('answers requests, tracks read marks, unread counts and the inbox', async () => {
    const conversation = await c.open('main-pm', 'fe-pm', 'status of the release?', {
      requires_response: true,
    });
    const inboxBefore = (await c.get('/api/a2a/inbox', 'fe-pm')).json<{
      total_unread: number;
      conversations_with_unread: number;
      unanswered_requests: number;
      conversations: ConversationBody[];
    }>();
    expect(inboxBefore.total_unread).toBeGreaterThanOrEqual(1);
    expect(inboxBefore.unanswered_requests).toBeGreaterThanOrEqual(1);
    const entry = inboxBefore.conversations.find((x) => x.id === conversation.id);
    expect(entry?.unread).toBe(1);

    const read = await c.post(`/api/a2a/conversations/${conversation.id}/read`, 'fe-pm');
    expect(read.statusCode).toBe(204);
    expect(read.body).toBe('');
    const after = (
      await c.get(`/api/a2a/conversations/${conversation.id}`, 'fe-pm')
    ).json<ConversationBody>();
    expect(after.unread).toBe(0);

    const page = (
      await c.get(`/api/a2a/conversations/${conversation.id}/messages`, 'fe-pm')
    ).json<PageBody>();
    const request = page.messages[0]!;
    const answer = await c.send('fe-pm', conversation.id, 'on track', {
      kind: 'response',
      response_to_id: request.id,
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.json<{ message: MessageBody }>().message.response_to_id).toBe(request.id);
    const fePmInbox = (await c.get('/api/a2a/inbox', 'fe-pm')).json<{ unanswered_requests: number }>();
    expect(fePmInbox.unanswered_requests).toBe(inboxBefore.unanswered_requests - 1);
    const mainPmView = (
      await c.get(`/api/a2a/conversations/${conversation.id}`, 'main-pm')
    ).json<ConversationBody>();
    expect(mainPmView).toMatchObject({ unread: 1, message_count: 2 });

    const ownAnswer = await c.send('main-pm', conversation.id, 'answering myself', {
      kind: 'response',
      response_to_id: page.messages[0]!.id,
    });
    expect(ownAnswer.statusCode).toBe(422);
  });

  it('lists the caller’s conversations with filters', async () => {
    const projectId = await insertProject(t.platform.database.db);
    const task = await insertTask(t.platform.database.db, { projectId });
    const withTask = await c.open('product-owner', 'main-pm', 'about the roadmap', { task_id: task.id });
    const other = await c.open('product-owner', 'auditor', 'audit the release');
    const list = async (query: string, slug: 'product-owner' | 'main-pm' | 'be-dev-1' = 'product-owner') =>
      (await c.get(`/api/a2a/conversations${query}`, slug)).json<{ conversations: ConversationBody[] }>()
        .conversations;

    const all = await list('');
    expect(all.map((x) => x.id)).toEqual(expect.arrayContaining([withTask.id, other.id]));
    expect((await list(`?task_id=${task.id}`)).map((x) => x.id)).toEqual([withTask.id]);
    expect((await list('?with_agent=auditor')).map((x) => x.id)).toEqual([other.id]);
    expect((await list('?limit=1')).length).toBe(1);
    expect((await list('', 'be-dev-1')).map((x) => x.id)).not.toContain(other.id);
    expect((await c.get('/api/a2a/conversations?limit=101', 'product-owner')).statusCode).toBe(422);
    expect((await c.get('/api/a2a/conversations?status=archived', 'product-owner')).statusCode).toBe(422);
    expect((await c.get('/api/a2a/conversations?with_agent=ghost', 'product-owner')).statusCode).toBe(404);

    const closed = await c.post(`/api/a2a/conversations/${other.id}/close`, 'auditor', {
      resolution: 'audited',
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json<ConversationBody>()).toMatchObject({ status: 'closed', resolution: 'audited' });
    expect(closed.json<ConversationBody>().closed_at).not.toBeNull();
    expect((await list('?status=closed')).map((x) => x.id)).toEqual([other.id]);
    expect((await list('?status=open')).map((x) => x.id)).not.toContain(other.id);

    const again = await c.post(`/api/a2a/conversations/${other.id}/close`, 'product-owner');
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>().error.code).toBe('conversation_closed');
    const late = await c.send('product-owner', other.id, 'one more thing');
    expect(late.statusCode).toBe(409);
    expect(late.json<ErrorBody>().error.code).toBe('conversation_closed');
  });

  it('closes without a body, leaving no resolution', async () => {
    const conversation = await c.open('be-pm', 'be-dev-2', 'wrap up');
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/a2a/conversations/${conversation.id}/close`,
      headers: c.as('be-dev-2'),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<ConversationBody>()).toMatchObject({ status: 'closed', resolution: null });
  });
});
