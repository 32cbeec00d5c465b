/** The CEO's live view of A2A: every conversation and the full text of any of them; 403 for everyone else. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  a2aClient,
  type ConversationBody,
  type ErrorBody,
  type PageBody,
} from '../src/modules/a2a/test-client.js';
import type { EventOf } from '../src/platform/bus/index.js';
import { insertProject, insertTask } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let c: ReturnType<typeof a2aClient>;

beforeAll(async () => {
  t = await startTestApp();
  c = a2aClient(t);
});
afterAll(() => t.close());

describe('/api/a2a/admin', () => {
  it('lists every conversation for the CEO, with filters and message counts', async () => {
    const projectId = await insertProject(t.platform.database.db);
    const task = await insertTask(t.platform.database.db, { projectId });
    const cell = await c.open('be-dev-1', 'be-qa', 'cell chatter', { task_id: task.id });
    const board = await c.open('product-owner', 'main-pm', 'board chatter');
    await c.send('be-qa', cell.id, 'reply');

    const list = async (query = '') => {
      const response = await c.get(`/api/a2a/admin/conversations${query}`, 'ceo');
      expect(response.statusCode).toBe(200);
      return response.json<{ conversations: ConversationBody[] }>().conversations;
    };
    const all = await list();
    expect(all.map((x) => x.id)).toEqual(expect.arrayContaining([cell.id, board.id]));
    expect(all.find((x) => x.id === cell.id)).toMatchObject({ message_count: 2, task_id: task.id });
    expect((await list(`?task_id=${task.id}`)).map((x) => x.id)).toEqual([cell.id]);
    expect((await list('?agent=main-pm')).map((x) => x.id)).toEqual([board.id]);
    expect(await list('?limit=1')).toHaveLength(1);
    expect((await c.get('/api/a2a/admin/conversations?limit=101', 'ceo')).statusCode).toBe(422);
  });

  it('gives the CEO the full text of any conversation, paged', async () => {
    const long = `${'word '.repeat(1999)}end!!`;
    expect(long).toHaveLength(10_000);
    const conversation = await c.open('be-pm', 'be-dev-2', long);
    await c.send('be-dev-2', conversation.id, 'short reply');
    const url = `/api/a2a/admin/conversations/${conversation.id}/messages`;
    const page = (await c.get(url, 'ceo')).json<PageBody>();
    expect(page.messages.map((m) => m.body)).toEqual([long, 'short reply']);
    expect(page.has_more).toBe(false);
    const latest = (await c.get(`${url}?limit=1`, 'ceo')).json<PageBody>();
    expect(latest.messages.map((m) => m.body)).toEqual(['short reply']);
    const older = (await c.get(`${url}?limit=1&before=${latest.next_before}`, 'ceo')).json<PageBody>();
    expect(older.messages[0]!.body).toBe(long);

    expect((await c.get(`/api/a2a/admin/conversations/${randomUUID()}/messages`, 'ceo')).statusCode).toBe(
      404,
    );
  });

  it('is what the panel refetches after an a2a.message frame', async () => {
    const seen: EventOf<'A2A_MESSAGE_SENT'>[] = [];
    const unsubscribe = t.platform.bus.subscribe('A2A_MESSAGE_SENT', (event) => {
      seen.push(event);
    });
    try {
      const conversation = await c.open('main-pm', 'auditor', 'please audit the release');
      await vi.waitFor(() => expect(seen.some((e) => e.data.conversation_id === conversation.id)).toBe(true));
      const event = seen.find((e) => e.data.conversation_id === conversation.id)!;
      const page = (
        await c.get(`/api/a2a/admin/conversations/${event.data.conversation_id}/messages`, 'ceo')
      ).json<PageBody>();
      expect(page.messages.find((m) => m.id === event.data.message_id)?.body).toBe(event.data.body);
    } finally {
      unsubscribe();
    }
  });

  it('is 403 for every other role and 401 without a token', async () => {
    const conversation = await c.open('be-pm', 'be-qa', 'private');
    for (const slug of ['main-pm', 'be-pm', 'be-qa', 'product-owner'] as const) {
      const listed = await c.get('/api/a2a/admin/conversations', slug);
      expect(listed.statusCode).toBe(403);
      expect(listed.json<ErrorBody>().error.code).toBe('forbidden');
      expect((await c.get(`/api/a2a/admin/conversations/${conversation.id}/messages`, slug)).statusCode).toBe(
        403,
      );
    }
    expect((await c.get('/api/a2a/admin/conversations', null)).statusCode).toBe(401);
    expect((await c.get(`/api/a2a/admin/conversations/${conversation.id}/messages`, null)).statusCode).toBe(
      401,
    );
  });
});
