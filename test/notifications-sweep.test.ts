/**
 * The expiry sweep with a fake clock: the first re-escalation at the ack deadline, then the
 * doubling backoff (capped at 24 h) up the escalation chain, at most the configured number, no
 * double send from concurrent sweeps, and auto-resolution when the related task closes.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '../src/modules/notifications/schema.js';
import { tasks } from '../src/modules/tasks/schema.js';
import type { EventOf } from '../src/platform/bus/index.js';
import { fakeClock } from '../src/platform/clock.js';
import { insertTask } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ID = {
  beDev1: '00000000-0000-0000-0001-000000000001',
  bePm: '00000000-0000-0000-0001-000000000004',
  mainPm: '00000000-0000-0000-0004-000000000001',
  productOwner: '00000000-0000-0000-0004-000000000002',
  ceo: '00000000-0000-0000-0000-000000000001',
};

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;
let sent: EventOf<'NOTIFICATION_SENT'>[];

async function start(config: Record<string, number>) {
  clock = fakeClock(new Date('2026-03-02T09:00:00Z'));
  t = await startTestApp({ clock, config });
  sent = [];
  t.platform.bus.subscribe('NOTIFICATION_SENT', (e) => {
    sent.push(e);
  });
}

const sendAlert = async (extra: Record<string, unknown> = {}) =>
  json<{ id: string }>(
    await t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: t.ceoHeaders,
      payload: { type: 'alert', recipients: ['be-dev-1'], subject: 'Blocked', body: 'Look', ...extra },
    }),
  ).id;

const row = async (id: string) =>
  (await t.platform.database.db.select().from(notifications).where(eq(notifications.id, id)))[0]!;
const sweep = () => t.modules.notifications.service.sweep(clock.now());
const recipientsOf = (id: string) =>
  sent.filter((e) => e.data.notification_id === id).map((e) => e.data.recipient_id);

afterEach(async () => {
  await t?.close();
});

describe('re-escalation', () => {
  beforeEach(() =>
    start({
      notificationAckTtlHours: 1,
      notificationReescalationBaseSeconds: 600,
      notificationMaxReescalations: 3,
    }),
  );

  it('re-escalates first at the ack deadline, then with doubling backoff up the chain, at most the maximum', async () => {
    const id = await sendAlert();
    expect((await row(id)).expiresAt?.toISOString()).toBe('2026-03-02T10:00:00.000Z');

    clock.advance(HOUR - 1);
    expect(await sweep()).toEqual({ resolved: 0, escalated: 0, exhausted: 0 });
    clock.advance(1);
    expect((await sweep()).escalated).toBe(1);
    await vi.waitFor(() => expect(recipientsOf(id)).toEqual([ID.beDev1, ID.bePm]));

    // Second one base (600 s) later.
    clock.advance(600_000 - 1);
    expect((await sweep()).escalated).toBe(0);
    clock.advance(1);
    expect((await sweep()).escalated).toBe(1);
    // Third one 2·base (1200 s) later.
    clock.advance(1_200_000 - 1);
    expect((await sweep()).escalated).toBe(0);
    clock.advance(1);
    expect((await sweep()).escalated).toBe(1);
    await vi.waitFor(() =>
      expect(recipientsOf(id)).toEqual([ID.beDev1, ID.bePm, ID.mainPm, ID.productOwner]),
    );

    const after = await row(id);
    expect(after.escalationCount).toBe(3);
    expect(after.nextEscalationAt).toBeNull();
    clock.advance(7 * 24 * HOUR);
    expect((await sweep()).escalated).toBe(0);

    // The escalated-to agent sees it and may ack it, which resolves it.
    const list = json<{ notifications: { id: string }[]; pending_ack_count: number }>(
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications?pending_ack_only=true',
        headers: t.headersFor('main-pm', 'main_pm', 'main_pm'),
      }),
    );
    expect(list.notifications.map((n) => n.id)).toContain(id);
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${id}/ack`,
      headers: t.headersFor('main-pm', 'main_pm', 'main_pm'),
    });
    expect(ack.statusCode).toBe(200);
  });

  it('never double-sends when sweeps race', async () => {
    const id = await sendAlert();
    clock.advance(HOUR);
    const reports = await Promise.all([sweep(), sweep(), sweep()]);
    expect(reports.reduce((n, r) => n + r.escalated, 0)).toBe(1);
    expect((await row(id)).escalationCount).toBe(1);
    await vi.waitFor(() => expect(recipientsOf(id)).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recipientsOf(id)).toEqual([ID.beDev1, ID.bePm]);
  });

  it('does not chase acked ones or those that need no ack', async () => {
    const id = await sendAlert();
    const mention = json<{ id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/notifications',
        headers: t.ceoHeaders,
        payload: { type: 'mention', recipients: ['be-dev-1'], subject: 'FYI', body: '' },
      }),
    ).id;
    await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${id}/ack`,
      headers: t.headersFor('be-dev-1', 'developer', 'backend'),
    });
    clock.advance(10 * HOUR);
    expect(await sweep()).toEqual({ resolved: 0, escalated: 0, exhausted: 0 });
    expect((await row(mention)).expiresAt).toBeNull();
  });
});

describe('backoff cap', () => {
  beforeEach(() =>
    start({
      notificationAckTtlHours: 1,
      notificationReescalationBaseSeconds: 50_000,
      notificationMaxReescalations: 5,
    }),
  );

  it('waits at most 24 h between re-escalations and stops at the top of the chain', async () => {
    const id = await sendAlert();
    clock.advance(HOUR);
    await sweep();
    expect((await row(id)).nextEscalationAt!.getTime() - clock.now().getTime()).toBe(50_000_000);
    clock.advance(50_000_000);
    await sweep();
    // 2·50 000 s would exceed a day: capped.
    expect((await row(id)).nextEscalationAt!.getTime() - clock.now().getTime()).toBe(24 * HOUR);
    clock.advance(24 * HOUR);
    await sweep();
    clock.advance(24 * HOUR);
    await sweep(); // fourth: the CEO
    await vi.waitFor(() => expect(recipientsOf(id).at(-1)).toBe(ID.ceo));
    clock.advance(24 * HOUR);
    expect(await sweep()).toEqual({ resolved: 0, escalated: 0, exhausted: 1 });
    expect((await row(id)).nextEscalationAt).toBeNull();
  });
});

describe('auto-resolution', () => {
  beforeEach(() =>
    start({
      notificationAckTtlHours: 1,
      notificationReescalationBaseSeconds: 600,
      notificationMaxReescalations: 3,
    }),
  );

  it('resolves unacked ones whose related task was completed or cancelled, and stops chasing them', async () => {
    const { db } = t.platform.database;
    const done = await insertTask(db);
    const dropped = await insertTask(db);
    const open = await insertTask(db);
    const a = await sendAlert({ related_task_id: done.id });
    const b = await sendAlert({ related_task_id: dropped.id });
    const c = await sendAlert({ related_task_id: open.id });
    await db.update(tasks).set({ status: 'completed' }).where(eq(tasks.id, done.id));
    await db.update(tasks).set({ status: 'cancelled' }).where(eq(tasks.id, dropped.id));

    expect(await sweep()).toEqual({ resolved: 2, escalated: 0, exhausted: 0 });
    expect(await row(a)).toMatchObject({ resolution: 'task_closed', nextEscalationAt: null });
    expect(await row(b)).toMatchObject({ resolution: 'task_closed' });
    expect(await row(c)).toMatchObject({ resolution: null });

    clock.advance(HOUR);
    expect(await sweep()).toEqual({ resolved: 0, escalated: 1, exhausted: 0 });
    expect((await row(c)).escalationCount).toBe(1);
    expect((await row(a)).escalationCount).toBe(0);

    const pending = json<{ notifications: { id: string }[] }>(
      await t.app.inject({
        method: 'GET',
        url: '/api/notifications?pending_ack_only=true',
        headers: t.headersFor('be-dev-1', 'developer', 'backend'),
      }),
    );
    expect(pending.notifications.map((n) => n.id)).toEqual([c]);
  });
});

describe('the running app', () => {
  beforeEach(() => start({ notificationAckTtlHours: 1, notificationSweepIntervalSeconds: 1 }));

  it('re-escalates an unacked notification on its own, without anyone calling the sweep', async () => {
    const id = await sendAlert();
    clock.advance(HOUR);
    await vi.waitFor(() => expect(recipientsOf(id)).toEqual([ID.beDev1, ID.bePm]), {
      timeout: 5000,
      interval: 100,
    });
  });
});
