/**
 * /api/notifications through real HTTP injection: send, list, read, ack, recipient-only access,
 * 400/404/422, and NOTIFICATION_SENT / NOTIFICATION_ACKED published only after commit.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventOf } from '../src/platform/bus/index.js';
import { json, startTestApp, type TestApp } from './support/app.js';

const DEV1 = '00000000-0000-0000-0001-000000000001';
const dev1 = () => t.headersFor('be-dev-1', 'developer', 'backend');
const dev2 = () => t.headersFor('be-dev-2', 'developer', 'backend');
const pm = () => t.headersFor('be-pm', 'cell_pm', 'backend');

let t: TestApp;
const sent: EventOf<'NOTIFICATION_SENT'>[] = [];
const acked: EventOf<'NOTIFICATION_ACKED'>[] = [];

beforeAll(async () => {
  t = await startTestApp();
  t.platform.bus.subscribe('NOTIFICATION_SENT', (e) => {
    sent.push(e);
  });
  t.platform.bus.subscribe('NOTIFICATION_ACKED', (e) => {
    acked.push(e);
  });
});
afterAll(async () => {
  await t?.close();
});

const send = (body: Record<string, unknown>, headers = t.ceoHeaders) =>
  t.app.inject({ method: 'POST', url: '/api/notifications', headers, payload: body });

describe('notifications API', () => {
  it('sends to recipients by slug and id, publishes NOTIFICATION_SENT per recipient after commit', async () => {
    const res = await send({
      type: 'approval',
      priority: 'urgent',
      recipients: ['be-dev-1', '00000000-0000-0000-0001-000000000002'],
      subject: 'Approve the plan',
      body: 'Please approve.',
    });
    expect(res.statusCode).toBe(201);
    const body = json<{
      id: string;
      ack_required: boolean;
      recipients: { slug: string }[];
      expires_at: string;
    }>(res);
    expect(body.ack_required).toBe(true);
    expect(body.expires_at).not.toBeNull();
    expect(body.recipients.map((r) => r.slug)).toEqual(['be-dev-1', 'be-dev-2']);
    await vi.waitFor(() => expect(sent.filter((e) => e.data.notification_id === body.id)).toHaveLength(2));
    expect(
      sent.find((e) => e.data.recipient_id === DEV1 && e.data.notification_id === body.id)?.data,
    ).toEqual({
      notification_id: body.id,
      recipient_id: DEV1,
      type: 'approval',
      priority: 'urgent',
      subject: 'Approve the plan',
      ack_required: true,
    });
  });

  it('lists only the caller’s own, with unread and pending-ack counts and filters', async () => {
    const a = json<{ id: string }>(
      await send({ type: 'mention', recipients: ['be-dev-2'], subject: 'Only dev 2', body: 'x' }),
    );
    const mine = json<{ notifications: { id: string }[]; unread_count: number; pending_ack_count: number }>(
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: dev1() }),
    );
    expect(mine.notifications.map((n) => n.id)).not.toContain(a.id);
    expect(mine.unread_count).toBeGreaterThanOrEqual(1);
    expect(mine.pending_ack_count).toBeGreaterThanOrEqual(1);

    const dev2List = json<{ notifications: { id: string; type: string }[] }>(
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications?type=mention&unread_only=true',
        headers: dev2(),
      }),
    );
    expect(dev2List.notifications.map((n) => n.id)).toEqual([a.id]);
    const pending = json<{ notifications: { type: string }[] }>(
      await t.app.inject({ method: 'GET', url: '/api/notifications?pending_ack_only=true', headers: dev2() }),
    );
    expect(pending.notifications.every((n) => n.type === 'approval')).toBe(true);
  });

  it('GET marks read; POST read is 204; a non-recipient gets 403; unknown is 404', async () => {
    const { id } = json<{ id: string }>(
      await send({ type: 'knowledge_share', recipients: ['be-dev-1'], subject: 'FYI', body: 'Read me' }),
    );
    const other = await t.app.inject({ method: 'GET', url: `/api/notifications/${id}`, headers: dev2() });
    expect(other.statusCode).toBe(403);
    expect(json<{ error: { code: string } }>(other).error.code).toBe('forbidden');
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/notifications/${id}/ack`, headers: dev2() }))
        .statusCode,
    ).toBe(403);

    const read = await t.app.inject({ method: 'GET', url: `/api/notifications/${id}`, headers: dev1() });
    expect(read.statusCode).toBe(200);
    expect(json<{ read_at: string | null }>(read).read_at).not.toBeNull();
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${id}/read`,
      headers: dev1(),
    });
    expect(again.statusCode).toBe(204);

    const unknown = '11111111-1111-4111-8111-111111111111';
    for (const [method, url] of [
      ['GET', `/api/notifications/${unknown}`],
      ['POST', `/api/notifications/${unknown}/read`],
      ['POST', `/api/notifications/${unknown}/ack`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: dev1() });
      expect(res.statusCode).toBe(404);
      expect(json<{ error: { code: string } }>(res).error.code).toBe('not_found');
    }
  });

  it('acks an ack-required one (NOTIFICATION_ACKED after commit); 400 ack_not_required otherwise', async () => {
    const plain = json<{ id: string }>(
      await send({ type: 'broadcast', recipients: ['be-dev-1'], subject: 'News', body: 'Hello' }),
    );
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${plain.id}/ack`,
      headers: dev1(),
    });
    expect(refused.statusCode).toBe(400);
    expect(json<{ error: { code: string } }>(refused).error.code).toBe('ack_not_required');

    const alert = json<{ id: string }>(
      await send({ type: 'alert', recipients: ['be-dev-1'], subject: 'CI red', body: 'Fix it' }, pm()),
    );
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${alert.id}/ack`,
      headers: dev1(),
    });
    expect(ack.statusCode).toBe(200);
    const view = json<{ acked_at: string | null; read_at: string | null; resolution: string }>(ack);
    expect(view.acked_at).not.toBeNull();
    expect(view.read_at).not.toBeNull();
    expect(view.resolution).toBe('acked');
    await vi.waitFor(() =>
      expect(acked.map((e) => e.data)).toContainEqual({ notification_id: alert.id, recipient_id: DEV1 }),
    );
    const pending = json<{ notifications: { id: string }[] }>(
      await t.app.inject({ method: 'GET', url: '/api/notifications?pending_ack_only=true', headers: dev1() }),
    );
    expect(pending.notifications.map((n) => n.id)).not.toContain(alert.id);
  });

  it('only PMs, board, CEO and system may send; 401 without credentials', async () => {
    const body = { type: 'mention', recipients: ['be-dev-1'], subject: 'Hi', body: '' };
    expect((await send(body, dev1())).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/notifications', payload: body })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });

  it('answers 422 for bodies, queries and ids that do not fit', async () => {
    const base = { type: 'mention', recipients: ['be-dev-1'], subject: 'Hi', body: 'b' };
    for (const bad of [
      { ...base, type: 'gossip' },
      { ...base, priority: 'low' },
      { ...base, recipients: [] },
      { ...base, subject: '' },
      { ...base, subject: 'x'.repeat(201) },
      { ...base, body: 'x'.repeat(10_001) },
      { ...base, extra: true },
      { ...base, related_task_id: 'abc' },
    ]) {
      const res = await send(bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(422);
    }
    for (const url of [
      '/api/notifications?limit=0',
      '/api/notifications?limit=101',
      '/api/notifications?type=x',
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: dev1() })).statusCode).toBe(422);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/notifications/abc', headers: dev1() })).statusCode,
    ).toBe(422);
  });

  it('publishes nothing and keeps nothing when the transaction rolls back', async () => {
    const before = json<{ notifications: unknown[] }>(
      await t.app.inject({ method: 'GET', url: '/api/notifications?limit=100', headers: dev1() }),
    ).notifications.length;
    const sentBefore = sent.length;

    // The notification row is written before the unknown recipient is discovered: all rolled back.
    const unknownRecipient = await send({
      type: 'mention',
      recipients: ['be-dev-1', 'no-such-agent'],
      subject: 'Rolled back',
      body: 'x',
    });
    expect(unknownRecipient.statusCode).toBe(422);
    expect(json<{ error: { code: string; details: unknown } }>(unknownRecipient).error).toMatchObject({
      code: 'unknown_recipient',
      details: { unknown: ['no-such-agent'] },
    });
    const unknownTask = await send({
      type: 'mention',
      recipients: ['be-dev-1'],
      subject: 'Rolled back too',
      body: 'x',
      related_task_id: '22222222-2222-4222-8222-222222222222',
    });
    expect(unknownTask.statusCode).toBe(422);
    expect(json<{ error: { code: string } }>(unknownTask).error.code).toBe('unknown_task');

    // A later successful send arrives; nothing of the failed ones ever came before it.
    const marker = json<{ id: string }>(
      await send({ type: 'mention', recipients: ['be-dev-1'], subject: 'Marker', body: 'x' }),
    );
    await vi.waitFor(() => expect(sent.some((e) => e.data.notification_id === marker.id)).toBe(true));
    expect(sent.slice(sentBefore).map((e) => e.data.subject)).toEqual(['Marker']);
    const after = json<{ notifications: { subject: string }[] }>(
      await t.app.inject({ method: 'GET', url: '/api/notifications?limit=100', headers: dev1() }),
    ).notifications;
    expect(after).toHaveLength(before + 1);
    expect(after.map((n) => n.subject)).not.toContain('Rolled back');
  });

  it('publishes nothing when the service’s transaction fails after its writes', async () => {
    const sentBefore = sent.length;
    const { db } = t.platform.database;
    const spy = vi.spyOn(db, 'transaction').mockImplementationOnce(async (work) =>
      db.transaction(async (tx) => {
        await work(tx);
        throw new Error('forced failure after the writes');
      }),
    );
    await expect(
      t.modules.notifications.service.send(
        { type: 'alert', recipients: ['be-dev-1'], subject: 'Forced', body: 'x' },
        { id: 'ceo', role: 'ceo' },
      ),
    ).rejects.toThrow('forced failure');
    spy.mockRestore();
    const marker = json<{ id: string }>(
      await send({ type: 'mention', recipients: ['be-dev-1'], subject: 'Marker 2', body: 'x' }),
    );
    await vi.waitFor(() => expect(sent.some((e) => e.data.notification_id === marker.id)).toBe(true));
    expect(sent.slice(sentBefore).map((e) => e.data.subject)).toEqual(['Marker 2']);
    const list = json<{ notifications: { subject: string }[] }>(
      await t.app.inject({ method: 'GET', url: '/api/notifications?limit=100', headers: dev1() }),
    ).notifications;
    expect(list.map((n) => n.subject)).not.toContain('Forced');
  });
});
