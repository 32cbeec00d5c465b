/**
 * Route advice on a real store: the developers' ended tasks of the last month on three models — the
 * role's own, one as good at half the cost, one cheaper still but worse on first-pass QA. The CEO's
 * inbox gets one card naming the half-cost one with the numbers, and not a second when the
 * scorecards are read again (here or on another replica); nothing is advised on a role an
 * experiment runs on, and the role's route is left as it was.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestApp, type TestApp } from './support/app.js';
import { LAB_PROVIDER } from './support/lab-provider.js';

let gaffer: TestApp;

beforeAll(async () => {
  gaffer = await startTestApp({ config: { agentProvider: 'claude' } });
}, 60_000);
afterAll(() => gaffer?.close());

interface Answer {
  id: string;
  notifications: { subject: string; body: string }[];
  roles: Record<string, { provider: string; model: string | null }>;
}

async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const response = await gaffer.app.inject({
    method,
    url,
    payload: payload as object,
    headers: gaffer.ceoHeaders,
  });
  return { status: response.statusCode, json: json<Answer>(response) };
}

/**
 * `count` developer tasks ended two days ago on `model` (the claude CLI), `passed` of them through QA
 * the first time, each costing `cost` and accepted. Outcome rows are what the keeper folds from the
 * record; here they are written as such (the fold itself is proven by the scripted company's files).
 */
async function ended(model: string, count: number, passed: number, cost: number) {
  const db = gaffer.platform.database.db;
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into task_outcomes (task_id, root_task_id, is_root, team, task_type, owner_role, cli, model,
        qa_first_pass, qa_fails, rework_rounds, first_claimed_at, ended_at, "end", runs, cost_usd, watermark)
      select id, id, false, 'backend', 'code', 'developer', 'claude', ${model}, i <= ${passed},
        (i > ${passed})::int, (i > ${passed})::int, now() - interval '3 days', now() - interval '2 days',
        'accepted', 1, ${cost}, 1
      from (select gen_random_uuid() as id, i from generate_series(1, ${count}) as i) as t`);
  });
}

const advice = async () =>
  (await api('GET', '/api/notifications?limit=50')).json.notifications.filter((card) =>
    card.subject.startsWith('The developer role could run on'),
  );

describe('route advice from the scorecards', () => {
  it('tells the CEO once of a route as good and cheaper, with the numbers', async () => {
    const provider = await api('POST', '/api/providers', LAB_PROVIDER);
    expect(provider.status, JSON.stringify(provider.json)).toBe(201);
    const routed = await api('PUT', '/api/providers/routing', {
      roles: { developer: { provider: 'lab', model: 'claude-own' } },
    });
    expect(routed.status, JSON.stringify(routed.json)).toBe(200);
    await ended('claude-own', 20, 16, 1.0);
    await ended('claude-half', 20, 17, 0.5);
    await ended('claude-sloppy', 20, 3, 0.1);

    // An experiment on the role holds the advice back: its own card comes when it ends.
    const running = await api('POST', '/api/workforce/experiments', {
      role: 'developer',
      a: { model: 'claude-own' },
      b: { model: 'claude-half' },
      share_b: 50,
    });
    expect(running.status, JSON.stringify(running.json)).toBe(201);
    expect(await gaffer.modules.evidence.adviseRoutes()).toEqual([]);
    expect((await api('POST', `/api/workforce/experiments/${running.json.id}/stop`)).status).toBe(200);

    const told = await gaffer.modules.evidence.adviseRoutes();
    expect(told.map((one) => [one.current.model, one.cheaper.model, one.costRatio])).toEqual([
      ['claude-own', 'claude-half', 0.5],
    ]);
    const cards = await advice();
    expect(cards).toHaveLength(1);
    expect(cards[0]!.subject).toBe('The developer role could run on claude / claude-half at 0.5× the cost');
    // Wilson intervals of 16/20 and 17/20, by hand; one run each, none failed on start.
    expect(cards[0]!.body).toContain(
      'Own route — claude / claude-own: first-pass QA 80 % [58–92], fails on start 0 % [0–16], $1.00 per accepted task (20 tasks).',
    );
    expect(cards[0]!.body).toContain(
      'Cheaper route — claude / claude-half: first-pass QA 85 % [64–95], fails on start 0 % [0–16], $0.50 per accepted task (20 tasks).',
    );
    expect(cards[0]!.body).not.toContain('claude-sloppy');

    // Read again (here, or by a second replica on the same store): not told twice.
    expect(await gaffer.modules.evidence.adviseRoutes()).toEqual([]);
    expect(await advice()).toHaveLength(1);
    // Advice only: the role's route is as it was.
    expect((await api('GET', '/api/providers/routing')).json.roles.developer).toMatchObject({
      provider: 'lab',
      model: 'claude-own',
    });
  });
});
