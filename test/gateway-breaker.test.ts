/**
 * The server-side circuit breaker per (agent, verb, task): three counted rejections of one verb
 * within 60 s open it (five for open_pr), the tripping rejection comes back as circuit_open with
 * the original under `inner`, later calls are refused without running until the window moves on
 * (a fake clock), other tasks and graceful exits are unaffected, and the absolute cap per run
 * stops a slow drip until the agent takes work again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskBody } from '../src/modules/tasks/test-fixtures.js';
import { fakeClock } from '../src/platform/clock.js';
import { agentClient, type GatewayApp, ok, rejected, startGatewayApp, WORK_PLAN } from './gateway-support.js';

const clock = fakeClock(new Date('2026-03-02T09:00:00Z'));
let t: GatewayApp;
let projectId: string;

beforeAll(async () => {
  t = await startGatewayApp({ clock });
  projectId = await t.createProject();
});
afterAll(() => t.close());

async function startedTask(slug: string, team = 'backend'): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/tasks',
    headers: t.ceoHeaders,
    payload: taskBody({ project_id: projectId, assigned_to: slug, team }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const task = response.json().id as string;
  ok(await agentClient(t, slug).verb('i_will_work_on', { task_id: task, ...WORK_PLAN }));
  return task;
}

const NOTES = { notes: 'Added the endpoint and its test; all green locally.' };

describe('the windowed limit', () => {
  it('opens on the third rejection of i_am_done, keeps the verb from running, and closes after 60 s', async () => {
    const dev = agentClient(t, 'be-dev-1');
    const task = await startedTask('be-dev-1');
    rejected(await dev.verb('i_am_done', { task_id: task, ...NOTES }), 'tracing_gap');
    rejected(await dev.verb('i_am_done', { task_id: task, ...NOTES }), 'tracing_gap');
    const third = rejected(await dev.verb('i_am_done', { task_id: task, ...NOTES }), 'circuit_open');
    expect(third.inner).toMatchObject({ error: 'tracing_gap', missing: ['commit', 'pull_request'] });
    expect(third.remediate).toMatch(/i_am_blocked.*unclaim.*i_am_idle/);
    expect(third.task_id).toBe(task);
    expect(third.current_state).toBe('in_progress');

    // Open: even a call that would now succeed is not run.
    ok(await dev.commitWork(task, 'feat(api): add the health endpoint'));
    ok(await dev.verb('open_pr', { task_id: task }));
    const held = rejected(await dev.verb('i_am_done', { task_id: task, ...NOTES }), 'circuit_open');
    expect(held.inner).toMatchObject({ error: 'tracing_gap' });
    expect(held.current_state).toBe('in_progress');

    // Graceful exits and other verbs stay open meanwhile.
    ok(await dev.verb('give_me_work'));

    clock.advance(61_000);
    const done = ok(await dev.verb('i_am_done', { task_id: task, ...NOTES }));
    expect(done.current_state).toBe('awaiting_qa');
  });

  it('is per task: the same verb on another task of another agent still runs', async () => {
    const first = agentClient(t, 'fe-dev-1');
    const task = await startedTask('fe-dev-1', 'frontend');
    for (let i = 0; i < 2; i++)
      rejected(await first.verb('i_am_done', { task_id: task, ...NOTES }), 'tracing_gap');
    rejected(await first.verb('i_am_done', { task_id: task, ...NOTES }), 'circuit_open');
    const other = await startedTask('fe-dev-2', 'frontend');
    rejected(await agentClient(t, 'fe-dev-2').verb('i_am_done', { task_id: other, ...NOTES }), 'tracing_gap');
    clock.advance(61_000);
  });

  it('allows open_pr five tries', async () => {
    const dev = agentClient(t, 'ux-dev-1');
    const task = await startedTask('ux-dev-1', 'ux_ui');
    for (let i = 0; i < 4; i++) {
      const envelope = rejected(await dev.verb('open_pr', { task_id: task }), 'tracing_gap');
      expect(envelope.missing).toEqual(['commit']);
    }
    const fifth = rejected(await dev.verb('open_pr', { task_id: task }), 'circuit_open');
    expect(fifth.inner).toMatchObject({ error: 'tracing_gap', missing: ['commit'] });
    expect(fifth.message).toContain('limit 5');
    clock.advance(61_000);
  });

  it('never counts not_found', async () => {
    const dev = agentClient(t, 'ux-dev-2');
    const missing = { task_id: '5b0e2f1a-0000-4000-8000-000000000000', ...NOTES };
    for (let i = 0; i < 4; i++) rejected(await dev.verb('i_am_done', missing), 'not_found');
  });
});

describe('the absolute cap per run', () => {
  it('stops a slow drip after 3 × the limit, until the agent takes work again', async () => {
    const dev = agentClient(t, 'be-dev-2');
    const task = await startedTask('be-dev-2');
    ok(await dev.verb('give_me_work')); // a fresh run
    for (let i = 0; i < 8; i++) {
      rejected(await dev.verb('i_am_done', { task_id: task, ...NOTES }), 'tracing_gap');
      clock.advance(61_000); // never three within a window
    }
    const ninth = rejected(await dev.verb('i_am_done', { task_id: task, ...NOTES }), 'circuit_open');
    expect(ninth.message).toContain('since you last took work');
    clock.advance(61_000);
    rejected(await dev.verb('i_am_done', { task_id: task, ...NOTES }), 'circuit_open');

    ok(await dev.verb('give_me_work')); // a new run: the verb runs again
    rejected(await dev.verb('i_am_done', { task_id: task, ...NOTES }), 'tracing_gap');
  });
});
