/**
 * Review rounds through the gateway: QA fails with findings (ledger), the developer gets the task
 * back, cannot submit again until every open finding is addressed, addresses them, and QA's pass
 * verifies them; a PM's request_changes and the PR gate's fail do the same with their origins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validVerbs } from '../src/modules/lifecycle/index.js';
import { taskBody } from '../src/modules/tasks/test-fixtures.js';
import { agentClient, type GatewayApp, ok, rejected, startGatewayApp, WORK_PLAN } from './gateway-support.js';

let t: GatewayApp;
let projectId: string;

beforeAll(async () => {
  t = await startGatewayApp();
  projectId = await t.createProject();
});
afterAll(() => t.close());

const FINDING = {
  file: 'src/api/health.ts',
  line: 12,
  severity: 'major',
  expected: 'the body names the version',
  actual: 'the body is empty',
  fix: 'return { version } from the handler',
};

async function ledger(taskId: string) {
  const response = await t.app.inject({ url: `/api/tasks/${taskId}/findings`, headers: t.ceoHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { findings: { id: string; status: string; origin: string }[] };
}

/** A leaf the developer submitted to QA. */
async function submittedLeaf(dev: ReturnType<typeof agentClient>): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/tasks',
    headers: t.ceoHeaders,
    payload: taskBody({ project_id: projectId, assigned_to: dev.slug }),
  });
  const task = created.json().id as string;
  ok(await dev.verb('i_will_work_on', { task_id: task, ...WORK_PLAN }));
  ok(await dev.commitWork(task, 'feat(api): add the health endpoint'));
  ok(await dev.verb('open_pr', { task_id: task }));
  ok(
    await dev.verb('i_am_done', {
      task_id: task,
      notes: 'GET /health added with its HTTP test; suite green.',
    }),
  );
  return task;
}

describe('a QA round trip', () => {
  it('fails with findings, demands they are addressed, and verifies them on the pass', async () => {
    const dev = agentClient(t, 'be-dev-1');
    const qa = agentClient(t, 'be-qa');
    const task = await submittedLeaf(dev);
    ok(await qa.verb('claim_review', { task_id: task }));

    const vague = rejected(
      await qa.verb('fail', {
        task_id: task,
        notes: 'the body lacks the version',
        findings: [{ ...FINDING, criterion: 'nonsense' }],
      }),
      'incomplete_input',
    );
    expect(vague.missing).toEqual(['findings']);
    const failed = ok(
      await qa.verb('fail', {
        task_id: task,
        notes: 'The body lacks the version field.',
        findings: [{ ...FINDING, criterion: 'The body names the version' }],
      }),
    );
    expect(failed.current_state).toBe('needs_revision');
    expect(failed.valid_next_verbs).toEqual(validVerbs('qa', 'needs_revision'));
    const [finding] = (await ledger(task)).findings;
    expect(finding).toMatchObject({ status: 'open', origin: 'qa' });

    const back = ok(await dev.verb('give_me_work'));
    expect(back).toMatchObject({ task_id: task, current_state: 'needs_revision', next: 'i_will_work_on' });
    expect(back.context_briefing).toMatchObject({
      task_handoff: { open_findings: [expect.stringContaining('F-')] },
    });
    ok(await dev.verb('i_will_work_on', { task_id: task, ...WORK_PLAN }));
    ok(await dev.commitWork(task, 'fix(api): name the version in the health body'));
    const commits = ok(await dev.tool('evidence', { task_id: task })).evidence?.commits as {
      message: string;
    }[];
    expect(commits.map((c) => c.message)).toEqual([
      `[${task.slice(0, 8)}] fix(api): name the version in the health body`,
      `[${task.slice(0, 8)}] feat(api): add the health endpoint`,
    ]);
    const gap = rejected(
      await dev.verb('i_am_done', { task_id: task, notes: 'The body now names the version, as QA asked.' }),
      'tracing_gap',
    );
    expect(gap.missing).toEqual([`finding:${finding!.id.slice(0, 8)}`]);
    const resubmitted = ok(
      await dev.verb('i_am_done', {
        task_id: task,
        notes: 'The body now names the version, as QA asked.',
        resolved_findings: [{ finding_id: `F-${finding!.id.slice(0, 8)}`, note: 'returns { version } now' }],
      }),
    );
    expect(resubmitted.current_state).toBe('awaiting_qa');
    expect((await ledger(task)).findings[0]).toMatchObject({ status: 'addressed' });

    ok(await qa.verb('claim_review', { task_id: task }));
    ok(
      await qa.verb('pass', {
        task_id: task,
        notes:
          'Re-tested: the body names the version now and the test checks it; both criteria hold on the branch.',
        criteria_verified: [
          { criterion: 'GET /health answers 200', evidence: 'curl -i shows 200' },
          { criterion: 'The body names the version', evidence: 'curl shows {"version"}' },
        ],
      }),
    );
    expect((await ledger(task)).findings[0]).toMatchObject({ status: 'verified' });
  });

  it('refuses a pass by a QA that has not claimed the review', async () => {
    const dev = agentClient(t, 'be-dev-2');
    const task = await submittedLeaf(dev);
    const unclaimed = rejected(
      await agentClient(t, 'be-qa').verb('pass', {
        task_id: task,
        notes: 'Looks fine to me at a glance, though I have not claimed the review of this task yet at all.',
        criteria_verified: [
          { criterion: 'GET /health answers 200', evidence: 'curl -i shows 200' },
          { criterion: 'The body names the version', evidence: 'curl shows {"version"}' },
        ],
      }),
      'not_authorized',
    );
    expect(unclaimed.reason).toBe('not_owner');
  });
});

describe('a PM asking for changes', () => {
  it('sends reviewed work back to its author with pm findings', async () => {
    const dev = agentClient(t, 'fe-dev-1');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: t.ceoHeaders,
      payload: taskBody({ project_id: projectId, assigned_to: 'fe-dev-1', team: 'frontend' }),
    });
    const task = created.json().id as string;
    ok(await dev.verb('i_will_work_on', { task_id: task, ...WORK_PLAN }));
    ok(await dev.commitWork(task, 'feat(ui): show the health badge', ['ui/badge.tsx']));
    ok(await dev.verb('open_pr', { task_id: task }));
    ok(
      await dev.verb('i_am_done', { task_id: task, notes: 'Badge shows the health state; story added too.' }),
    );
    const qa = agentClient(t, 'fe-qa');
    ok(await qa.verb('claim_review', { task_id: task }));
    ok(
      await qa.verb('pass', {
        task_id: task,
        notes:
          'The badge renders green and red states correctly and matches both acceptance criteria on the branch.',
        criteria_verified: [
          { criterion: 'GET /health answers 200', evidence: 'network tab shows 200' },
          { criterion: 'The body names the version', evidence: 'the badge tooltip shows it' },
        ],
      }),
    );
    const doc = agentClient(t, 'fe-doc');
    ok(await doc.verb('claim_doc_task', { task_id: task }));
    ok(await doc.commitWork(task, 'docs: describe the health badge', ['docs/ui.md']));
    ok(
      await doc.verb('i_documented', {
        task_id: task,
        notes: 'Documented the badge.',
        files: ['docs/ui.md'],
      }),
    );

    const pm = agentClient(t, 'fe-pm');
    const review = ok(await pm.verb('triage'));
    expect(review).toMatchObject({ task_id: task, current_state: 'awaiting_pm_review', next: 'complete' });
    const sent = ok(
      await pm.verb('request_changes', {
        task_id: task,
        notes: 'The badge must not poll faster than once a minute.',
        findings: [
          {
            ...FINDING,
            file: 'ui/badge.tsx',
            expected: 'poll once a minute',
            actual: 'polls every second',
            fix: 'use a 60 s interval',
          },
        ],
      }),
    );
    expect(sent.current_state).toBe('needs_revision');
    expect((await ledger(task)).findings[0]).toMatchObject({ origin: 'pm', status: 'open' });
    expect(ok(await dev.verb('give_me_work')).task_id).toBe(task);
  });
});
