/**
 * The live path end to end, through every layer a person's action crosses: a REST call, the
 * service's transaction, the bus after commit, the bridge, and a real WebSocket client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestApp, type TestApp } from './support/app.js';
import { connect, framesWithin, listen, type StreamClient } from './support/ws-client.js';

let t: TestApp;
let base: string;
const clients: StreamClient[] = [];
beforeAll(async () => {
  t = await startTestApp();
  base = await listen(t);
});
afterAll(async () => {
  for (const client of clients) client.ws.terminate();
  await t.close();
});

const open = async (path: string) => {
  const { client } = await connect(`${base}${path}`);
  clients.push(client);
  return client;
};
const pm = () => t.headersFor('be-pm', 'cell_pm', 'backend');
const dev = () => t.headersFor('be-dev-1', 'developer', 'backend');

async function nextOfType(client: StreamClient, type: string) {
  for (;;) {
    const frame = (await client.next(5000)) as { type: string };
    if (frame.type === type) return frame as Record<string, unknown>;
  }
}

describe('notifications over REST reach the recipient’s socket', () => {
  it('delivers NOTIFICATION_SENT to the recipient only, and the ack produces NOTIFICATION_ACKED', async () => {
    const recipient = await open('/ws/notifications/be-dev-1?agent_id=be-dev-1');
    const bystander = await open('/ws/notifications/be-dev-2?agent_id=be-dev-2');

    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: pm(),
      payload: {
        type: 'approval',
        priority: 'high',
        recipients: ['be-dev-1'],
        subject: 'Sign off the API change',
        body: 'Please ack.',
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const notificationId = json<{ id: string }>(sent).id;

    expect(await nextOfType(recipient, 'NOTIFICATION_SENT')).toMatchObject({
      notification_id: notificationId,
      notification_type: 'approval',
      priority: 'high',
      subject: 'Sign off the API change',
      ack_required: true,
    });

    const acked = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${notificationId}/ack`,
      headers: dev(),
    });
    expect(acked.statusCode, acked.body).toBe(200);
    expect(await nextOfType(recipient, 'NOTIFICATION_ACKED')).toMatchObject({
      notification_id: notificationId,
    });
    expect(await framesWithin(bystander, 200)).toEqual([]);
  });
});

describe('agent-to-agent messages reach the operator stream', () => {
  it('arrives on /ws/system as a2a.message with the body capped at 240 characters plus an ellipsis', async () => {
    const system = await open('/ws/system');
    const body = `${'All tests pass on the branch; '.repeat(10)}please review.`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/a2a/conversations',
      headers: pm(),
      payload: { target_agent: 'be-dev-1', topic: 'Review', initial_message: body },
    });
    expect(created.statusCode, created.body).toBe(201);

    const frame = await nextOfType(system, 'a2a.message');
    expect(frame).toMatchObject({ sender_slug: 'be-pm', recipient_slug: 'be-dev-1' });
    const excerpt = frame.body_excerpt as string;
    // The first 240 characters, right-trimmed, then a single ellipsis.
    expect(excerpt).toBe(`${body.slice(0, 240).trimEnd()}…`);
    expect(JSON.stringify(frame)).not.toContain('please review.');
  });
});
