/**
 * The context briefing through the real app: its unread A2A and pending notifications (read in one
 * statement) are what the A2A and notifications services themselves answer for the agent, capped
 * at ten each, and read_a2a reads exactly the conversations the briefing lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentClient,
  dataOf,
  type GatewayApp,
  ok,
  startGatewayApp,
  taskBody,
} from '../../../test/gateway-support.js';
import { rosterMember } from '../agents/index.js';

let t: GatewayApp;
beforeAll(async () => {
  t = await startGatewayApp();
});
afterAll(() => t.close());

const ref = (slug: string) => {
  const member = rosterMember(slug);
  return { id: member.id, slug, role: member.role, team: member.team ?? null };
};

/** The briefing as the services read it: what the envelope must show. */
async function expectedBriefing(slug: string) {
  const me = ref(slug);
  const inbox = await t.modules.a2a.service.inbox(me);
  const list = await t.modules.notifications.service.list(me.id, { unreadOnly: true, limit: 10 });
  return {
    unread_a2a: {
      total: inbox.total_unread,
      unanswered_requests: inbox.unanswered_requests,
      conversations: inbox.conversations.slice(0, 10).map((c) => ({
        conversation_id: c.id,
        with: c.participant_a.id === me.id ? c.participant_b.slug : c.participant_a.slug,
        topic: c.topic,
        task_id: c.task_id,
        unread: c.unread,
      })),
      ...(inbox.total_unread > 0 ? { hint: 'read them with the read_a2a tool' } : {}),
    },
    pending_notifications: {
      unread: list.unread_count,
      pending_ack: list.pending_ack_count,
      items: list.notifications.map((n) => ({
        id: n.id,
        type: n.type,
        priority: n.priority,
        subject: n.subject,
        ack_required: n.ack_required,
        related_task_id: n.related_task_id,
        sent_at: n.sent_at,
      })),
    },
  };
}

describe('context briefing', () => {
  it('shows the unread A2A and pending notifications the services answer, ten of each at most', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: t.ceoHeaders,
      payload: taskBody({ team: 'frontend', assigned_to: 'fe-dev-1', project_id: await t.createProject() }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const taskId = created.json().id as string;
    for (let i = 0; i < 11; i++) {
      await t.modules.a2a.service.openConversation(ref(i % 2 ? 'fe-pm' : 'fe-qa'), {
        targetAgent: 'fe-dev-1',
        topic: `question ${i}`,
        taskId: i === 3 ? taskId : null,
        initialMessage: `Message number ${i}`,
        requiresResponse: i === 4,
      });
    }
    const pm = ref('fe-pm');
    for (let i = 0; i < 12; i++) {
      await t.modules.notifications.service.send(
        {
          type: i % 3 === 0 ? 'review_request' : 'broadcast',
          priority: i === 5 ? 'high' : 'normal',
          recipients: ['fe-dev-1'],
          subject: `Notice ${i}`,
          body: 'Read me.',
          related_task_id: i === 7 ? taskId : null,
        },
        { id: pm.id, role: pm.role },
      );
    }

    const dev = agentClient(t, 'fe-dev-1');
    const envelope = ok(await dev.verb('give_me_work'));
    const expected = await expectedBriefing('fe-dev-1');
    expect(envelope.context_briefing).toMatchObject(expected);
    expect(expected.unread_a2a).toMatchObject({ total: 11, unanswered_requests: 1 });
    expect(expected.unread_a2a.conversations).toHaveLength(10);
    expect(expected.pending_notifications.unread).toBe(12);
    expect(expected.pending_notifications.items).toHaveLength(10);

    const read = ok(await dev.tool('read_a2a'));
    const conversations = dataOf(read).conversations as { conversation_id: string }[];
    expect(conversations.map((c) => c.conversation_id)).toEqual(
      expected.unread_a2a.conversations.map((c) => c.conversation_id),
    );
    expect(read.context_briefing).toMatchObject(await expectedBriefing('fe-dev-1'));
    expect(read.context_briefing).toMatchObject({ unread_a2a: { total: 1 } });

    ok(await dev.tool('read_a2a'));
    const idle = ok(await dev.tool('read_a2a'));
    expect(dataOf(idle).conversations).toEqual([]);
    expect(idle.context_briefing).toMatchObject(await expectedBriefing('fe-dev-1'));
    expect(idle.context_briefing).toMatchObject({ unread_a2a: { total: 0, conversations: [] } });
  });
});
