/**
 * The company-wide monthly budget through the real app and dispatcher: once the month's spend
 * reaches `company_monthly_budget_usd` the budget sweep alerts the CEO once (per month and cap) and
 * the dispatcher starts no agent runs at all, saying why; raising the cap lets work start again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { fakeClock } from '../src/platform/clock.js';
import { json } from './support/app.js';

const clock = fakeClock(new Date('2026-05-20T10:00:00.000Z'));
let t: DispatchTestApp;

beforeAll(async () => {
  t = await startDispatchApp({ clock });
});
afterEach(() => t.reset());
afterAll(() => t?.close());

const setCap = async (value: number | null) => {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/settings/company_monthly_budget_usd',
    headers: t.ceoHeaders,
    payload: { value },
  });
  expect(response.statusCode, response.body).toBe(200);
};
const alerts = async () =>
  json<{ notifications: { subject: string; type: string }[] }>(
    await t.app.inject({ method: 'GET', url: '/api/notifications?limit=100', headers: t.ceoHeaders }),
  ).notifications.filter((n) => n.type === 'alert' && n.subject.startsWith('Company monthly budget'));
const skips = async () =>
  json<{ last_pass: { skipped: { task_id: string; reason: string }[] } }>(
    await t.app.inject({ method: 'GET', url: '/api/orchestrator/dispatcher', headers: t.ceoHeaders }),
  ).last_pass.skipped;

describe('the company monthly budget', () => {
  it('alerts the CEO once and holds every spawn while it is reached; a raised cap releases it', async () => {
    await setCap(5);
    await t.usage.service.record({
      provider: 'claude',
      model: 'claude-sonnet-4-5',
      input_tokens: 1000,
      output_tokens: 100,
      cost_usd: 4,
      at: new Date('2026-04-30T23:00:00.000Z'), // last month: does not count
    });
    await t.usage.service.record({ provider: 'claude', input_tokens: 10, output_tokens: 10, cost_usd: 5.5 });
    const projection = json(
      await t.app.inject({ method: 'GET', url: '/api/usage/projection', headers: t.ceoHeaders }),
    );
    expect(projection).toMatchObject({ month_to_date_usd: 5.5, monthly_cap_usd: 5, over_budget: true });

    await t.runLoop('dispatch.budget');
    expect(await alerts()).toHaveLength(1);
    expect((await alerts())[0]!.subject).toBe('Company monthly budget reached for 2026-05');

    const task = await t.insertTask({ team: 'backend', title: 'Work while broke' });
    await t.runLoop('dispatch.tick');
    expect(t.runtime.supervisor.list().filter((run) => run.taskId === task.id)).toEqual([]);
    expect(await skips()).toContainEqual({
      task_id: task.id,
      reason: 'the company is over its monthly budget',
    });

    await t.runLoop('dispatch.budget');
    expect(await alerts()).toHaveLength(1);

    await setCap(100);
    await t.runLoop('dispatch.tick');
    expect(t.runtime.supervisor.list().some((run) => run.taskId === task.id)).toBe(true);
    await setCap(null);
  });
});
