/**
 * The parking's episode rules through the real app: an agent reports its provider's rate limit
 * with i_am_blocked (reason_kind) — the task stays as it is, the provider is its CLI kind when no
 * provider is routed; a second hit merges silently (window extended, agents united, one event);
 * the end of a CLI kind's window lifts it; a configured provider that keeps answering 429 backs off
 * (doubling, capped), the CEO hears of it once per episode, and the parking gives up after its cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { gatewayRouteOf } from '../src/modules/lifecycle/index.js';
import { eventually } from '../src/modules/runtime/test-fake-agents.js';
import { RATE_LIMIT_PROBE_LOOP, rateLimitRules } from '../src/modules/system/index.js';
import type { BusEvent } from '../src/platform/bus/index.js';
import { fakeClock } from '../src/platform/clock.js';
import { insertTask } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';

const clock = fakeClock(new Date('2026-03-02T09:00:00.000Z'));
let t: TestApp;
let fake: FakeLlm;
const events: BusEvent[] = [];

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ clock });
  t.platform.bus.subscribe('*', (event) => {
    if (event.type.startsWith('RATE_LIMIT_')) events.push(event);
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const ofType = (type: string) => events.filter((event) => event.type === type).map((event) => event.data);
/** The events of `type`, once `count` of them have arrived (the bus delivers asynchronously). */
async function arrived(type: string, count: number) {
  await eventually(() => ofType(type).length >= count);
  return ofType(type);
}
const entries = async () =>
  (await t.app.inject({ url: '/api/system/rate-limits', headers: t.ceoHeaders })).json().entries as Record<
    string,
    unknown
  >[];
const probe = () => t.scheduler.runNow(RATE_LIMIT_PROBE_LOOP);

/** i_am_blocked from `slug` on a task it works on, with the rate-limit fields given. */
async function reportBlocked(slug: string, fields: Record<string, unknown>) {
  const agent = rosterMember(slug);
  const task = await insertTask(t.platform.database.db, {
    team: agent.team ?? 'backend',
    status: 'in_progress',
    assignedTo: agent.id,
    activeClaimantId: agent.id,
  });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/flow/${gatewayRouteOf(agent.role)}/i_am_blocked`,
    headers: t.headersFor(agent.id, agent.role, agent.team ?? ''),
    payload: {
      task_id: task.id,
      reason: 'the model provider answers 429 Too Many Requests',
      blocker_type: 'external',
      what_needed: 'the provider to take requests again',
      ...fields,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  const taskNow = await t.app.inject({ url: `/api/tasks/${task.id}`, headers: t.ceoHeaders });
  return { envelope: response.json(), taskStatus: taskNow.json().status as string };
}

describe('reported through the gateway', () => {
  it('parks the agent CLI kind, leaves the task alone, merges a second hit and lifts at the window end', async () => {
    const first = await reportBlocked('be-dev-1', { reason_kind: 'rate_limited', retry_after_seconds: 30 });
    expect(first.taskStatus).toBe('in_progress');
    expect(first.envelope).toMatchObject({
      status: 'rate_limited',
      data: { provider: 'claude', resume_at: '2026-03-02T09:00:30.000Z', retry_after_seconds: 30 },
    });
    expect(await arrived('RATE_LIMIT_HIT', 1)).toEqual([
      {
        provider: 'claude',
        kind: 'rate_limited',
        affected_agents: ['be-dev-1'],
        hit_at: '2026-03-02T09:00:00.000Z',
        resume_at: '2026-03-02T09:00:30.000Z',
        retry_after_seconds: 30,
        probe_failures: 0,
      },
    ]);

    clock.advance(10_000);
    const second = await reportBlocked('fe-dev-1', { reason_kind: 'overloaded', retry_after_seconds: 300 });
    expect(second.taskStatus).toBe('in_progress');
    expect(await entries()).toEqual([
      {
        provider: 'claude',
        kind: 'rate_limited',
        affected_agents: ['be-dev-1', 'fe-dev-1'],
        hit_at: '2026-03-02T09:00:00.000Z',
        resume_at: '2026-03-02T09:05:10.000Z',
        retry_after_seconds: 300,
        probe_failures: 0,
      },
    ]);

    clock.advance(60_000);
    await probe();
    expect(await entries()).toHaveLength(1);
    clock.advance(300_000);
    await probe();
    expect(await entries()).toEqual([]);
    expect(await arrived('RATE_LIMIT_LIFTED', 1)).toEqual([
      { provider: 'claude', resumed_agents: ['be-dev-1', 'fe-dev-1'], lifted_at: '2026-03-02T09:06:10.000Z' },
    ]);
    // The second hit merged into the episode without a second event (it would have come before the lift).
    expect(ofType('RATE_LIMIT_HIT')).toHaveLength(1);
  });

  it('still refuses an incomplete report and a bad reason_kind (422-style envelope, nothing parked)', async () => {
    const agent = rosterMember('be-dev-2');
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/flow/${gatewayRouteOf(agent.role)}/i_am_blocked`,
      headers: t.headersFor(agent.id, agent.role, agent.team ?? ''),
      payload: { reason_kind: 'sleepy' },
    });
    expect(response.json()).toMatchObject({ status: 'rejected', error: 'incomplete_input' });
    expect(await entries()).toEqual([]);
  });
});

describe('a configured provider that keeps failing its probe', () => {
  it('backs off, tells the CEO once, then gives up and lifts it', async () => {
    events.length = 0;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/providers',
      headers: t.ceoHeaders,
      payload: {
        name: 'busy',
        kind: 'anthropic',
        base_url: fake.url,
        default_model: 'fake-small',
        api_key: 'test-key',
      },
    });
    expect(created.statusCode).toBe(201);
    await reportBlocked('be-dev-2', { reason_kind: 'rate_limited', provider: 'busy' });
    const hitAt = clock.now().getTime();
    expect((await entries())[0]).toMatchObject({
      provider: 'busy',
      retry_after_seconds: null,
      resume_at: new Date(hitAt + rateLimitRules.DEFAULT_WINDOW_SECONDS * 1000).toISOString(),
    });

    const { GIVE_UP_AFTER_FAILURES, NOTIFY_CEO_AFTER_FAILURES } = rateLimitRules;
    const ceoAlerts = async () =>
      (
        (await t.app.inject({ url: '/api/notifications?type=alert', headers: t.ceoHeaders })).json()
          .notifications as { subject: string }[]
      ).filter((n) => n.subject.includes('busy'));
    const waits: number[] = [];
    for (let failures = 1; failures < GIVE_UP_AFTER_FAILURES; failures++) {
      const [entry] = await entries();
      clock.set(new Date(entry!.resume_at as string));
      fake.script({ kind: 'rate_limited' });
      await probe();
      const [after] = await entries();
      expect(after).toMatchObject({ provider: 'busy', probe_failures: failures });
      waits.push((Date.parse(after!.resume_at as string) - clock.now().getTime()) / 1000);
      expect((await ceoAlerts()).length).toBe(failures >= NOTIFY_CEO_AFTER_FAILURES ? 1 : 0);
    }
    expect(waits.slice(0, 6)).toEqual([30, 60, 120, 240, 480, 600]);
    expect(Math.max(...waits)).toBe(rateLimitRules.MAX_PROBE_BACKOFF_SECONDS);
    expect(ofType('RATE_LIMIT_LIFTED')).toEqual([]);

    const [last] = await entries();
    clock.set(new Date(last!.resume_at as string));
    fake.script({ kind: 'rate_limited' });
    await probe();
    expect(await entries()).toEqual([]);
    expect(await arrived('RATE_LIMIT_LIFTED', 1)).toEqual([
      { provider: 'busy', resumed_agents: ['be-dev-2'], lifted_at: clock.now().toISOString() },
    ]);
    expect(ofType('RATE_LIMIT_HIT')).toHaveLength(1);
  }, 60_000);
});
