/**
 * The CEO's cockpit through the real app: CEO only; an empty company answers zeros; then the
 * charter, tasks moved through the API (completed first time, completed after a revision, blocked,
 * on the CEO's desk), usage in the ledger and a monthly cap show up as delivery, spend and signals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { taskBody } from '../src/modules/tasks/test-fixtures.js';
import { insertProject } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let projectId: string;
beforeAll(async () => {
  t = await startTestApp();
  projectId = await insertProject(t.platform.database.db, 'cockpit-shop');
});
afterAll(() => t?.close());

interface Summary {
  north_star: string;
  objectives: { title: string }[];
  delivery: {
    in_flight: number;
    blocked: number;
    awaiting_ceo: number;
    completed_30d: number;
    median_lead_time_hours: number | null;
    first_pass_yield: number | null;
  };
  spend: {
    spend_30d_usd: number;
    month_to_date_usd: number;
    projected_month_usd: number;
    monthly_cap_usd: number | null;
    over_budget: boolean;
  };
  signals: { kind: string; summary: string; detail: string }[];
}

const as = (slug: string) => {
  const member = rosterMember(slug);
  return t.headersFor(member.id, member.role, member.team ?? '');
};
const summary = async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/cockpit/summary', headers: t.ceoHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return json<Summary>(response);
};

async function createTask(title: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/tasks',
    headers: t.ceoHeaders,
    payload: taskBody({ title, project_id: projectId }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ id: string }>(response).id;
}

/** The CEO's audited override (god mode). */
async function override(id: string, status: string) {
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/tasks/${id}`,
    headers: t.ceoHeaders,
    payload: { status, force: true, reason: `test moves it to ${status}` },
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe('the cockpit summary', () => {
  it('is the CEO’s alone', async () => {
    for (const slug of ['main-pm', 'be-pm', 'be-dev-1', 'product-owner', 'head-marketing']) {
      const refused = await t.app.inject({ method: 'GET', url: '/api/cockpit/summary', headers: as(slug) });
      expect(refused.statusCode, slug).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/cockpit/summary' })).statusCode).toBe(401);
  });

  it('answers zeros and no signals for a company with nothing going on', async () => {
    expect(await summary()).toEqual({
      north_star: '',
      objectives: [],
      delivery: {
        in_flight: 0,
        blocked: 0,
        awaiting_ceo: 0,
        completed_30d: 0,
        median_lead_time_hours: null,
        first_pass_yield: null,
      },
      spend: {
        spend_30d_usd: 0,
        month_to_date_usd: 0,
        projected_month_usd: 0,
        monthly_cap_usd: null,
        over_budget: false,
      },
      signals: [],
    });
  });

  it('sums up the charter, the delivery, the spend against the cap, and what needs attention', async () => {
    const goals = await t.app.inject({
      method: 'PUT',
      url: '/api/company-goals',
      headers: t.ceoHeaders,
      payload: { north_star: 'Same-day shipping', objectives: [{ title: 'Cut checkout time' }] },
    });
    expect(goals.statusCode, goals.body).toBe(200);

    const clean = await createTask('Completed at the first pass');
    await override(clean, 'completed');
    const reworked = await createTask('Sent back once');
    await override(reworked, 'needs_revision');
    await override(reworked, 'completed');
    await override(await createTask('Waiting on a decision'), 'blocked');
    await override(await createTask('On the CEO’s desk'), 'awaiting_ceo_approval');
    await createTask('In the pool');
    await override(await createTask('Not started'), 'backlog');

    const cap = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/company_monthly_budget_usd',
      headers: t.ceoHeaders,
      payload: { value: 20 },
    });
    expect(cap.statusCode, cap.body).toBe(200);
    await t.modules.usage.service.record({
      agent_id: rosterMember('be-dev-1').id,
      task_id: clean,
      provider: 'claude',
      input_tokens: 1000,
      output_tokens: 100,
      cost_usd: 25,
    });

    const s = await summary();
    expect(s.north_star).toBe('Same-day shipping');
    expect(s.objectives).toEqual([{ title: 'Cut checkout time' }]);
    expect(s.delivery).toMatchObject({
      in_flight: 1,
      blocked: 1,
      awaiting_ceo: 1,
      completed_30d: 2,
      first_pass_yield: 0.5,
    });
    expect(s.delivery.median_lead_time_hours).toBeGreaterThanOrEqual(0);
    expect(s.spend).toMatchObject({
      spend_30d_usd: 25,
      month_to_date_usd: 25,
      monthly_cap_usd: 20,
      over_budget: true,
    });
    expect(s.spend.projected_month_usd).toBeGreaterThanOrEqual(25);
    expect(s.signals.map((signal) => signal.kind)).toEqual(['over_budget', 'awaiting_ceo', 'blocked_rising']);
    expect(s.signals[0]!.summary).toContain('$25.00 of $20.00');

    // Raising the cap clears the budget signal.
    await t.app.inject({
      method: 'PUT',
      url: '/api/settings/company_monthly_budget_usd',
      headers: t.ceoHeaders,
      payload: { value: 1_000_000 },
    });
    const raised = await summary();
    expect(raised.spend.over_budget).toBe(false);
    expect(raised.signals.map((signal) => signal.kind)).not.toContain('over_budget');
  });
});
