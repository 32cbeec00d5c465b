/**
 * The stalled-task feed and spawn waste on data made by the real dispatcher, real agent processes
 * and the real gateway: an agent that exits at once without doing anything is respawned until the
 * respawn breaker stalls its task (the feed lists it, oldest first, until someone moves the task
 * on), and each of its runs is zero-progress waste with the cost its agent recorded during it; an
 * agent that claims, starts and commits through the gateway during its run is not waste. The
 * charter the CEO wrote is in every spawned agent's prompt.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { type DispatchTestApp, startDispatchApp } from '../src/modules/dispatch/test-dispatch-app.js';
import { WORK_PLAN } from '../src/modules/gateway/test-fixtures.js';
import { eventually } from '../src/modules/runtime/test-fake-agents.js';
import { json } from './support/app.js';

let t: DispatchTestApp;
beforeAll(async () => {
  t = await startDispatchApp({ config: { dispatchRespawnLimit: 2 } });
});
afterEach(() => t.reset());
afterAll(() => t?.close());

interface StalledRow {
  task_id: string;
  title: string;
  assignee_id: string | null;
  assignee_slug: string | null;
  status: string;
  reason: string;
  stalled_since: string;
  stalled_seconds: number;
}
interface WasteRow {
  key: string;
  label: string;
  runs: number;
  zero_progress_runs: number;
  zero_progress_cost_usd: number;
}
interface Waste {
  days: number;
  total_runs: number;
  zero_progress_runs: number;
  total_cost_usd: number;
  zero_progress_cost_usd: number;
  zero_progress_cost_share: number;
  by_agent: WasteRow[];
  by_team: WasteRow[];
  by_task: WasteRow[];
}

const as = (slug: string) => {
  const member = rosterMember(slug);
  return t.headersFor(member.id, member.role, member.team ?? '');
};
const get = (url: string, headers: Record<string, string> = t.ceoHeaders) =>
  t.app.inject({ method: 'GET', url, headers });
const stalledFeed = async () => {
  const response = await get('/api/dashboard/stalled-tasks');
  expect(response.statusCode, response.body).toBe(200);
  return json<{ tasks: StalledRow[] }>(response).tasks;
};
const waste = async (query = '') => {
  const response = await get(`/api/dashboard/metrics/spawn-waste${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return json<Waste>(response);
};

async function createTask(fields: Record<string, unknown>): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/tasks',
    headers: t.ceoHeaders,
    payload: {
      description: 'Work the dispatcher hands to the task’s owner.',
      acceptance_criteria: ['It is done'],
      team: 'backend',
      task_type: 'code',
      nature: 'technical',
      complexity: 'low',
      project_id: t.project.id,
      ...fields,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ id: string }>(response).id;
}

/** The ended runs of the agent on the task, oldest first. */
async function runsOf(slug: string, taskId: string) {
  const all = await t.runtime.endedTaskRuns(new Date(0), new Date(Date.now() + 60_000));
  return all.filter((run) => run.agentId === rosterMember(slug).id && run.taskId === taskId);
}

/** Usage the agent reports during a run (at its start), in the usage ledger. */
async function spend(
  run: { agentId: string; taskId: string; startedAt: Date },
  usd: number,
  at = run.startedAt,
) {
  await t.usage.service.record({
    agent_id: run.agentId,
    task_id: run.taskId,
    provider: 'custom',
    input_tokens: 1000,
    output_tokens: 100,
    cost_usd: usd,
    at,
  });
}

describe('the stalled-task feed and spawn waste', () => {
  it('lists a task the respawn breaker gave up on, counts its runs as waste, and drops it once it moves', async () => {
    t.behave('be-dev-2', 'exit');
    const task = await createTask({ title: 'Goes nowhere', assigned_to: 'be-dev-2' });
    await t.runLoop('dispatch.tick');
    await eventually(async () => (await stalledFeed()).some((row) => row.task_id === task), 20_000);
    await t.dispatch.dispatcher.idle();

    const [row] = (await stalledFeed()).filter((r) => r.task_id === task);
    expect(row).toMatchObject({
      title: 'Goes nowhere',
      assignee_id: rosterMember('be-dev-2').id,
      assignee_slug: 'be-dev-2',
      status: 'pending',
      reason: 'breaker_tripped: 2 spawns of be-dev-2 made no progress',
    });
    expect(Date.parse(row!.stalled_since)).not.toBeNaN();
    expect(row!.stalled_seconds).toBeGreaterThanOrEqual(0);
    // PMs read it too; a developer may not; nobody anonymous.
    expect((await get('/api/dashboard/stalled-tasks', as('be-pm'))).statusCode).toBe(200);
    expect((await get('/api/dashboard/stalled-tasks', as('be-dev-1'))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/stalled-tasks' })).statusCode).toBe(401);

    // Each run cost what its agent recorded during it; spending before the runs belongs to none.
    const runs = await runsOf('be-dev-2', task);
    expect(runs).toHaveLength(2);
    await spend(runs[0]!, 0.25);
    await spend(runs[1]!, 0.5);
    await spend(runs[0]!, 9, new Date(runs[0]!.startedAt.getTime() - 60_000));

    const mine = await waste('?agent=be-dev-2');
    expect(mine).toMatchObject({
      days: 30,
      total_runs: 2,
      zero_progress_runs: 2,
      total_cost_usd: 0.75,
      zero_progress_cost_usd: 0.75,
      zero_progress_cost_share: 1,
      by_agent: [{ key: rosterMember('be-dev-2').id, label: 'be-dev-2', runs: 2, zero_progress_runs: 2 }],
      by_team: [
        { key: 'backend', label: 'backend', runs: 2, zero_progress_runs: 2, zero_progress_cost_usd: 0.75 },
      ],
      by_task: [
        { key: task, label: 'Goes nowhere', runs: 2, zero_progress_runs: 2, zero_progress_cost_usd: 0.75 },
      ],
    });
    // The same runs by the agent's id.
    expect((await waste(`?agent=${rosterMember('be-dev-2').id}&days=1`)).total_runs).toBe(2);

    // Progress by someone other than the system (the CEO edits the task) takes it off the feed.
    t.behave('be-dev-2', 'sleep');
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${task}`,
      headers: t.ceoHeaders,
      payload: { priority: 0, reason: 'try again with a clearer brief' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await stalledFeed()).map((r) => r.task_id)).not.toContain(task);
  });

  it('does not count a run that claimed, started and committed through the gateway, and briefs it with the charter', async () => {
    const charter = await t.app.inject({
      method: 'PUT',
      url: '/api/company-goals',
      headers: t.ceoHeaders,
      payload: {
        north_star: 'Every order ships the same day',
        constraints: ['No customer data leaves the EU'],
      },
    });
    expect(charter.statusCode, charter.body).toBe(200);

    t.behave('be-dev-1', 'sleep');
    const task = await createTask({ title: 'Add the cart page', assigned_to: 'be-dev-1' });
    await t.runLoop('dispatch.tick');
    await eventually(() => t.reports('be-dev-1').some((r) => r.task === task));
    const report = t.reports('be-dev-1').find((r) => r.task === task)!;
    expect(report.prompt).toContain('North star: Every order ships the same day');
    expect(report.prompt).toContain('Constraints: No customer data leaves the EU');

    // The agent works through the gateway while it runs: plan and start, then a commit.
    const headers = as('be-dev-1');
    const call = async (url: string, payload: object) => {
      const response = await t.app.inject({ method: 'POST', url, headers, payload });
      expect(response.statusCode, response.body).toBe(200);
      const envelope = json<{ ok: boolean; error: string | null }>(response);
      expect(envelope.ok, response.body).toBe(true);
    };
    await call('/api/v1/flow/developer/i_will_work_on', { task_id: task, ...WORK_PLAN });
    writeFileSync(join(report.cwd, 'cart.ts'), 'export const cart = [];\n');
    await call('/api/v1/do', { tool: 'commit', task_id: task, message: 'feat(cart): add the cart page' });
    const events = json<{ events: { action: string; actor_id: string }[] }>(
      await get(`/api/tasks/${task}/events`),
    ).events;
    expect(events).toContainEqual(
      expect.objectContaining({ action: 'commit', actor_id: rosterMember('be-dev-1').id }),
    );

    const stopped = await t.app.inject({
      method: 'POST',
      url: `/api/orchestrator/agents/${rosterMember('be-dev-1').id}/stop`,
      headers: t.ceoHeaders,
      payload: { graceful: false },
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    const [run] = await runsOf('be-dev-1', task);
    await spend(run!, 0.4);

    expect(await waste('?agent=be-dev-1')).toMatchObject({
      total_runs: 1,
      zero_progress_runs: 0,
      total_cost_usd: 0.4,
      zero_progress_cost_usd: 0,
      zero_progress_cost_share: 0,
      by_task: [{ key: task, label: 'Add the cart page', runs: 1, zero_progress_runs: 0 }],
    });
    // Company-wide, the figures add up across agents.
    const all = await waste();
    const sum = (rows: WasteRow[], pick: (row: WasteRow) => number) =>
      rows.reduce((n, row) => n + pick(row), 0);
    expect(sum(all.by_agent, (row) => row.runs)).toBe(all.total_runs);
    expect(sum(all.by_team, (row) => row.zero_progress_runs)).toBe(all.zero_progress_runs);
    expect(all.by_agent.find((row) => row.label === 'be-dev-1')).toMatchObject({ zero_progress_runs: 0 });
    expect(all.zero_progress_cost_share).toBeCloseTo(all.zero_progress_cost_usd / all.total_cost_usd, 4);
  });

  it('refuses a bad window or an unknown agent with a 422 naming the field, after the role check', async () => {
    for (const query of [
      'days=0',
      'days=91',
      'days=-1',
      'days=abc',
      'days=1.5',
      'agent=nobody-here',
      'period=7d',
    ]) {
      const response = await get(`/api/dashboard/metrics/spawn-waste?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(JSON.stringify(json(response)), query).toMatch(/query\.(days|agent|period)|additional/);
    }
    expect((await get('/api/dashboard/metrics/spawn-waste?days=0', as('be-dev-1'))).statusCode).toBe(403);
  });
});
