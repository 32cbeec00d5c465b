/**
 * A2A_MESSAGE_SENT: published exactly once per persisted message, after commit, with the full body;
 * never for a refused message, a suppressed duplicate, or a transaction that rolled back. Also the
 * rules that refuse or suppress: reply-then-wait with the CEO and duplicate suppression.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { a2aMessages } from '../src/modules/a2a/schema.js';
import {
  a2aClient,
  type ErrorBody,
  type MessageBody,
  type PageBody,
} from '../src/modules/a2a/test-client.js';
import { rosterMember } from '../src/modules/agents/index.js';
import { type EventOf, inTransaction } from '../src/platform/bus/index.js';
import { insertProject, insertTask } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let c: ReturnType<typeof a2aClient>;
let seen: EventOf<'A2A_MESSAGE_SENT'>[] = [];
let unsubscribe: () => void;

beforeAll(async () => {
  t = await startTestApp();
  c = a2aClient(t);
  unsubscribe = t.platform.bus.subscribe('A2A_MESSAGE_SENT', (event) => {
    seen.push(event);
  });
});
afterAll(async () => {
  unsubscribe();
  await t.close();
});
beforeEach(() => {
  seen = [];
});

/** Delivery may go through Redis: wait until the event of `messageId` has arrived. */
const arrived = (messageId: string) =>
  vi.waitFor(() => expect(seen.map((e) => e.data.message_id)).toContain(messageId), { timeout: 5000 });

/**
 * Writes a sentinel message and waits for its event: anything published before it has arrived by
 * then (one publisher, ordered delivery), so what is missing was never published.
 */
async function settle(): Promise<void> {
  const sentinel = await c.open('be-pm', 'be-doc', `sentinel ${Math.random()}`);
  const page = (await c.get(`/api/a2a/conversations/${sentinel.id}/messages`, 'be-pm')).json<PageBody>();
  await arrived(page.messages[0]!.id);
  seen = seen.filter((e) => e.data.conversation_id !== sentinel.id);
}

describe('A2A_MESSAGE_SENT', () => {
  it('is published once per persisted message, with slugs, task and the full body', async () => {
    const long = 'L'.repeat(10_000);
    const conversation = await c.open('be-dev-1', 'be-qa', long);
    const reply = await c.send('be-qa', conversation.id, 'got it');
    const replyId = reply.json<{ message: MessageBody }>().message.id;
    await arrived(replyId);
    await settle();
    const page = (
      await c.get(`/api/a2a/conversations/${conversation.id}/messages`, 'be-qa')
    ).json<PageBody>();
    expect(seen).toHaveLength(2);
    expect(seen[0]!.data).toEqual({
      conversation_id: conversation.id,
      message_id: page.messages[0]!.id,
      task_id: null,
      sender_slug: 'be-dev-1',
      recipient_slug: 'be-qa',
      body: long,
    });
    expect(seen[1]!.data).toMatchObject({
      message_id: replyId,
      sender_slug: 'be-qa',
      recipient_slug: 'be-dev-1',
    });
    expect(seen[1]!.type).toBe('A2A_MESSAGE_SENT');
  });

  it('carries the conversation’s task', async () => {
    const projectId = await insertProject(t.platform.database.db);
    const task = await insertTask(t.platform.database.db, { projectId });
    const conversation = await c.open('be-pm', 'be-dev-1', 'about this task', { task_id: task.id });
    await settle();
    expect(seen.filter((e) => e.data.conversation_id === conversation.id).map((e) => e.data.task_id)).toEqual(
      [task.id],
    );
  });

  it('is not published for a refused message', async () => {
    const denied = await c.post('/api/a2a/conversations', 'be-dev-1', {
      target_agent: 'fe-dev-1',
      initial_message: 'x',
    });
    expect(denied.statusCode).toBe(403);
    const conversation = await c.open('be-pm', 'be-dev-2', 'hi');
    await c.post(`/api/a2a/conversations/${conversation.id}/close`, 'be-pm');
    expect((await c.send('be-dev-2', conversation.id, 'too late')).statusCode).toBe(409);
    expect((await c.send('be-dev-1', conversation.id, 'not mine')).statusCode).toBe(403);
    expect((await c.send('be-dev-2', conversation.id, '')).statusCode).toBe(422);
    await settle();
    expect(seen.map((e) => e.data.body)).toEqual(['hi']);
  });

  it('is not published when the surrounding transaction rolls back, and nothing is stored', async () => {
    const conversation = await c.open('be-pm', 'be-qa', 'start');
    await settle();
    seen = [];
    const db = t.platform.database.db;
    await expect(
      inTransaction(db, t.platform.bus, async (tx, events) => {
        const sent = await t.modules.a2a.service.send(
          { conversationId: conversation.id, sender: 'be-qa', body: 'rolled back' },
          { tx, events },
        );
        expect(sent.duplicate).toBe(false);
        throw new Error('abort the transaction');
      }),
    ).rejects.toThrow('abort the transaction');
    await settle();
    expect(seen).toEqual([]);
    const rows = await db.select().from(a2aMessages).where(eq(a2aMessages.conversationId, conversation.id));
    expect(rows.map((r) => r.body)).toEqual(['start']);

    const committed = await inTransaction(db, t.platform.bus, (tx, events) =>
      t.modules.a2a.service.send(
        { conversationId: conversation.id, sender: 'be-qa', body: 'committed' },
        { tx, events },
      ),
    );
    await arrived(committed.message.id);
    expect(seen.map((e) => e.data.body)).toEqual(['committed']);
  });
});

describe('duplicate suppression', () => {
  it('does not store or publish an identical unread message, and does once it was read', async () => {
    const conversation = await c.open('be-pm', 'be-dev-1', 'deploy when ready');
    const first = await c.send('be-pm', conversation.id, 'ping');
    expect(first.statusCode).toBe(201);
    const again = await c.send('be-pm', conversation.id, 'ping');
    expect(again.statusCode).toBe(200);
    const duplicate = again.json<{ message: MessageBody; duplicate: boolean }>();
    expect(duplicate.duplicate).toBe(true);
    expect(duplicate.message.id).toBe(first.json<{ message: MessageBody }>().message.id);
    // A different kind or body is a different message.
    expect((await c.send('be-pm', conversation.id, 'ping', { kind: 'request' })).statusCode).toBe(201);
    expect((await c.send('be-pm', conversation.id, 'ping!')).statusCode).toBe(201);
    // The same text from the other participant is its own message.
    expect((await c.send('be-dev-1', conversation.id, 'ping')).statusCode).toBe(201);

    await c.post(`/api/a2a/conversations/${conversation.id}/read`, 'be-dev-1');
    const afterRead = await c.send('be-pm', conversation.id, 'ping');
    expect(afterRead.statusCode).toBe(201);
    expect(afterRead.json<{ duplicate: boolean }>().duplicate).toBe(false);

    await settle();
    const page = (
      await c.get(`/api/a2a/conversations/${conversation.id}/messages`, 'be-pm')
    ).json<PageBody>();
    expect(page.messages.map((m) => m.body)).toEqual([
      'deploy when ready',
      'ping',
      'ping',
      'ping!',
      'ping',
      'ping',
    ]);
    expect(seen.filter((e) => e.data.conversation_id === conversation.id)).toHaveLength(6);
  });
});

describe('reply-then-wait with the CEO', () => {
  it('lets an agent reply only while it has written fewer messages than the CEO', async () => {
    const conversation = await c.open('ceo', 'main-pm', 'how is the quarter going?');
    expect(conversation.participant_a.id).toBe(rosterMember('ceo').id);
    expect((await c.send('main-pm', conversation.id, 'on plan')).statusCode).toBe(201);
    const second = await c.send('main-pm', conversation.id, 'also, one more thing');
    expect(second.statusCode).toBe(409);
    expect(second.json<ErrorBody>().error).toMatchObject({
      code: 'awaiting_ceo',
      details: { your_messages: 1, ceo_messages: 1 },
    });
    // The CEO is never limited.
    expect((await c.send('ceo', conversation.id, 'good. risks?')).statusCode).toBe(201);
    expect((await c.send('ceo', conversation.id, 'and the budget?')).statusCode).toBe(201);
    expect((await c.send('main-pm', conversation.id, 'risk: hiring')).statusCode).toBe(201);
    expect((await c.send('main-pm', conversation.id, 'budget: fine')).statusCode).toBe(201);
    expect((await c.send('main-pm', conversation.id, 'anything else?')).statusCode).toBe(409);

    await settle();
    const published = seen.filter((e) => e.data.conversation_id === conversation.id);
    expect(published.map((e) => e.data.body)).toEqual([
      'how is the quarter going?',
      'on plan',
      'good. risks?',
      'and the budget?',
      'risk: hiring',
      'budget: fine',
    ]);
    expect(published[0]!.data).toMatchObject({ sender_slug: 'ceo', recipient_slug: 'main-pm' });
  });
});
