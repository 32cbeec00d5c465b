import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { clientFor, ok, refused, taskBody } from '../src/modules/tasks/test-fixtures.js';
import { insertProject } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let projectId: string;
let as: (slug: string) => ReturnType<typeof clientFor>;

beforeAll(async () => {
  t = await startTestApp();
  projectId = await insertProject(t.platform.database.db);
  as = (slug) => clientFor(t.app, t.headersFor, slug);
});
afterAll(() => t.close());

const id = (slug: string) => rosterMember(slug).id;

async function trail(taskId: string): Promise<string[]> {
  const response = await as('ceo').get(`/api/tasks/${taskId}/events`);
  expect(response.statusCode).toBe(200);
  return (
    response.json().events as { action: string; from_status: string; to_status: string; actor_role: string }[]
  ).map((e) => `${e.actor_role} ${e.action} ${e.from_status}>${e.to_status}`);
}

describe('a code leaf through the whole pipeline', () => {
  it('walks every state with the right role at each step, audited', async () => {
    const created = ok(
      await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId, status: 'backlog' })),
    );
    expect(created).toMatchObject({
      status: 'backlog',
      priority: 2,
      source: 'manual',
      created_by: id('main-pm'),
    });
    const task = created.id;
    const dev = as('be-dev-1');
    const pm = as('be-pm');
    const qa = as('be-qa');

    expect(ok(await pm.act(task, 'activate')).status).toBe('pending');
    const claimed = ok(await dev.act(task, 'claim'));
    expect(claimed).toMatchObject({
      status: 'claimed',
      assigned_to: id('be-dev-1'),
      active_claimant_id: id('be-dev-1'),
    });
    expect(claimed.last_heartbeat_at).not.toBeNull();

    const started = ok(await dev.act(task, 'start'));
    expect(started.status).toBe('in_progress');
    expect(started.started_at).not.toBeNull();

    expect(ok(await dev.act(task, 'pause', { reason: 'lunch' })).status).toBe('paused');
    expect(ok(await dev.act(task, 'resume')).status).toBe('in_progress');

    const blocked = ok(await dev.act(task, 'block', { reason: 'the staging database is down' }));
    expect(blocked).toMatchObject({
      status: 'blocked',
      active_claimant_id: null,
      assigned_to: id('be-dev-1'),
    });
    const unblocked = ok(await pm.act(task, 'unblock', { reason: 'staging is back up again' }));
    expect(unblocked).toMatchObject({
      status: 'in_progress',
      assigned_to: id('be-dev-1'),
      active_claimant_id: id('be-dev-1'),
    });

    const submitted = ok(await dev.act(task, 'submit'));
    expect(submitted).toMatchObject({ status: 'awaiting_qa', assigned_to: null, active_claimant_id: null });
    expect(submitted.markers).toMatchObject({ original_developer: id('be-dev-1') });

    expect(ok(await qa.act(task, 'claim'))).toMatchObject({
      status: 'awaiting_qa',
      active_claimant_id: id('be-qa'),
    });
    const failed = ok(await qa.act(task, 'fail', { reason: 'the body lacks the version field' }));
    expect(failed).toMatchObject({
      status: 'needs_revision',
      assigned_to: id('be-dev-1'),
      revision_count: 1,
    });

    expect(ok(await dev.act(task, 'claim')).status).toBe('needs_revision');
    expect(ok(await dev.act(task, 'start')).status).toBe('in_progress');
    expect(ok(await dev.act(task, 'submit')).status).toBe('awaiting_qa');

    ok(await qa.act(task, 'claim'));
    expect(ok(await qa.act(task, 'pass')).status).toBe('awaiting_documentation');

    const doc = as('be-doc');
    expect(ok(await doc.act(task, 'claim'))).toMatchObject({
      status: 'awaiting_documentation',
      active_claimant_id: id('be-doc'),
    });
    const documented = ok(await doc.act(task, 'docs-complete'));
    expect(documented).toMatchObject({
      status: 'awaiting_pm_review',
      docs_complete: true,
      assigned_to: id('be-pm'),
    });

    const escalated = ok(await as('main-pm').act(task, 'escalate', { reason: 'ready for the CEO sign-off' }));
    expect(escalated).toMatchObject({ status: 'awaiting_ceo_approval', assigned_to: null });

    const done = ok(await as('ceo').act(task, 'complete'));
    expect(done.status).toBe('completed');
    expect(done.completed_at).not.toBeNull();

    expect(await trail(task)).toEqual([
      'main_pm create null>backlog',
      'cell_pm activate backlog>pending',
      'developer claim pending>claimed',
      'developer start claimed>in_progress',
      'developer pause in_progress>paused',
      'developer resume paused>in_progress',
      'developer block in_progress>blocked',
      'cell_pm unblock blocked>in_progress',
      'developer submit_verification in_progress>verifying',
      'developer submit_qa verifying>awaiting_qa',
      'qa claim awaiting_qa>awaiting_qa',
      'qa qa_fail awaiting_qa>needs_revision',
      'developer claim needs_revision>needs_revision',
      'developer start needs_revision>in_progress',
      'developer submit_verification in_progress>verifying',
      'developer submit_qa verifying>awaiting_qa',
      'qa claim awaiting_qa>awaiting_qa',
      'qa qa_pass awaiting_qa>awaiting_documentation',
      'documenter claim awaiting_documentation>awaiting_documentation',
      'documenter docs_complete awaiting_documentation>awaiting_pm_review',
      'main_pm escalate_to_ceo awaiting_pm_review>awaiting_ceo_approval',
      'ceo ceo_approve awaiting_ceo_approval>completed',
    ]);
    const events = (await as('ceo').get(`/api/tasks/${task}/events`)).json().events;
    expect(events.find((e: { action: string }) => e.action === 'qa_fail')).toMatchObject({
      actor_id: id('be-qa'),
      reason: 'the body lacks the version field',
    });
  });
});

describe('a cell task through the PR-review gate', () => {
  it('goes PM → gate → revision → gate → PM review → completed', async () => {
    const task = ok(
      await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId, task_type: 'planning' })),
    ).id;
    const pm = as('be-pm');
    const reviewer = as('be-pr-reviewer');
    ok(await pm.act(task, 'claim'));
    ok(await pm.act(task, 'start'));
    expect(ok(await pm.act(task, 'submit-for-review')).status).toBe('awaiting_pr_review');
    expect(ok(await reviewer.act(task, 'claim')).status).toBe('awaiting_pr_review');
    const failed = ok(await reviewer.act(task, 'pr-fail', { reason: 'CI is red on the assembled branch' }));
    expect(failed).toMatchObject({ status: 'needs_revision', assigned_to: id('be-pm') });
    ok(await pm.act(task, 'claim'));
    ok(await pm.act(task, 'start'));
    ok(await pm.act(task, 'submit-for-review'));
    ok(await reviewer.act(task, 'claim'));
    expect(ok(await reviewer.act(task, 'pr-pass'))).toMatchObject({
      status: 'awaiting_pm_review',
      assigned_to: id('be-pm'),
    });
    expect(ok(await pm.act(task, 'complete')).status).toBe('completed');
  });

  it('lets the CEO send a task back for revision from sign-off', async () => {
    const task = ok(await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId }))).id;
    ok(await as('ceo').patch(`/api/tasks/${task}`, { status: 'awaiting_ceo_approval', force: true }));
    refused(await as('ceo').act(task, 'request-changes'), 422, 'validation_failed');
    const rejected = ok(
      await as('ceo').act(task, 'request-changes', { reason: 'the scope drifted from the brief' }),
    );
    expect(rejected).toMatchObject({ status: 'needs_revision', revision_count: 1 });
  });
});

describe('cancel', () => {
  it('cancels from the pool, and refuses to cancel twice', async () => {
    const task = ok(await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId }))).id;
    refused(await as('be-dev-1').act(task, 'cancel'), 403, 'not_authorized');
    refused(await as('fe-pm').act(task, 'cancel'), 403, 'not_authorized');
    expect(ok(await as('be-pm').act(task, 'cancel', { reason: 'superseded' })).status).toBe('cancelled');
    refused(await as('ceo').act(task, 'cancel'), 409, 'invalid_state');
  });
});

describe('forbidden moves', () => {
  let task: string;
  beforeAll(async () => {
    task = ok(await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId }))).id;
  });

  it('refuses the wrong state with 409 invalid_state', async () => {
    refused(await as('be-dev-2').act(task, 'start'), 409, 'invalid_state');
    refused(await as('be-dev-2').act(task, 'submit'), 409, 'invalid_state');
    refused(
      await as('be-pm').act(task, 'unblock', { reason: 'nothing to unblock here' }),
      409,
      'invalid_state',
    );
  });

  it('refuses the wrong role with 403 not_authorized', async () => {
    refused(await as('be-qa').act(task, 'claim'), 403, 'not_authorized');
    refused(await as('be-dev-2').act(task, 'complete'), 403, 'not_authorized');
    refused(await as('auditor').act(task, 'cancel'), 403, 'not_authorized');
    refused(await as('fe-dev-1').act(task, 'claim'), 403, 'not_authorized');
  });

  it('lets only the owner work a claimed task', async () => {
    ok(await as('be-dev-2').act(task, 'claim'));
    refused(await as('be-dev-1').act(task, 'start'), 403, 'not_authorized');
    refused(await as('be-pm').act(task, 'complete'), 409, 'invalid_state');
    ok(await as('be-dev-2').act(task, 'start'));
    refused(await as('be-dev-2').act(task, 'pass'), 403, 'not_authorized');
    refused(await as('be-dev-2').act(task, 'block'), 422, 'validation_failed');
    expect(ok(await as('be-dev-2').act(task, 'unclaim'))).toMatchObject({
      status: 'pending',
      assigned_to: null,
      active_claimant_id: null,
    });
  });

  it('answers 404 for an unknown task and 422 for a short id', async () => {
    refused(await as('be-dev-1').act('00000000-0000-4000-8000-000000000000', 'claim'), 404, 'not_found');
    const short = await as('be-dev-1').act(task.slice(0, 8), 'claim');
    refused(short, 422, 'validation_failed');
    expect(short.json().error.remediate).toMatch(/36-character/);
  });

  it('refuses unknown body properties with field details', async () => {
    const response = await as('be-pm').act(task, 'cancel', { reason: 'x', why: 'y' });
    refused(response, 422, 'validation_failed');
    expect(response.json().error.details).toEqual([
      { field: 'body.why', message: 'is not an accepted property' },
    ]);
  });
});

describe('side paths', () => {
  it('escalates up and unblocks back to the snapshot, releasing to the pool when it was unowned', async () => {
    const task = ok(await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId }))).id;
    refused(await as('be-pm').act(task, 'escalate-up', { reason: 'short' }), 422, 'validation_failed');
    const blocked = ok(
      await as('be-pm').act(task, 'escalate-up', { reason: 'needs a product decision first' }),
    );
    expect(blocked.markers).toMatchObject({ pre_block: { status: 'pending', assigned_to: null } });
    const back = ok(await as('main-pm').act(task, 'unblock', { reason: 'the decision has been made' }));
    expect(back).toMatchObject({ status: 'pending', assigned_to: null, active_claimant_id: null });
  });

  it('lets the system release a stale claim, keeping the owner', async () => {
    const task = ok(await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId }))).id;
    ok(await as('be-dev-1').act(task, 'claim'));
    refused(await as('be-pm').act(task, 'release'), 403, 'not_authorized');
    const released = ok(await as('system').act(task, 'release', { reason: 'no heartbeat for 10 minutes' }));
    expect(released).toMatchObject({
      status: 'pending',
      assigned_to: id('be-dev-1'),
      active_claimant_id: null,
    });
    expect(ok(await as('be-dev-1').act(task, 'claim')).status).toBe('claimed');
    ok(await as('be-dev-1').act(task, 'unclaim'));
  });

  it('sends a branchless root from PM review to the CEO and back to the pool', async () => {
    const task = ok(
      await as('main-pm').post(
        '/api/tasks',
        taskBody({ project_id: projectId, team: 'main_pm', task_type: 'planning' }),
      ),
    ).id;
    ok(await as('main-pm').act(task, 'claim'));
    ok(await as('main-pm').act(task, 'start'));
    expect(ok(await as('main-pm').act(task, 'submit-pm-review'))).toMatchObject({
      status: 'awaiting_pm_review',
      assigned_to: id('main-pm'),
    });
    ok(await as('main-pm').act(task, 'escalate', { reason: 'the plan needs the CEO sign-off' }));
    const pooled = ok(
      await as('ceo').act(task, 'reject-to-pool', { reason: 'start over with a smaller scope' }),
    );
    expect(pooled).toMatchObject({ status: 'pending', assigned_to: null });
  });

  it('refuses to let the work’s author review it (self-review blocked)', async () => {
    const task = ok(await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId }))).id;
    ok(await as('ceo').patch(`/api/tasks/${task}`, { status: 'in_progress', assigned_to: 'be-qa' }));
    ok(await as('be-qa').act(task, 'submit-pm-review'));
    ok(await as('ceo').patch(`/api/tasks/${task}`, { status: 'awaiting_qa', force: true }));
    const response = await as('be-qa').act(task, 'claim');
    refused(response, 403, 'not_authorized');
    expect(response.json().error.message).toMatch(/self-review/);
  });

  it('refuses roll-up while a subtask is open', async () => {
    const parent = ok(
      await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId, task_type: 'planning' })),
    ).id;
    const child = ok(await as('be-pm').post('/api/tasks', taskBody({ parent_task_id: parent }))).id;
    ok(await as('be-pm').act(parent, 'claim'));
    ok(await as('be-pm').act(parent, 'start'));
    const response = await as('be-pm').act(parent, 'submit-for-review');
    refused(response, 409, 'subtasks_open');
    expect(response.json().error.details.subtasks).toEqual([expect.objectContaining({ id: child })]);
    ok(await as('be-pm').act(child, 'cancel'));
    expect(ok(await as('be-pm').act(parent, 'submit-for-review')).status).toBe('awaiting_pr_review');
  });
});
