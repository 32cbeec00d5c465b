/**
 * The verbs off the main path, through the real app: blocking and unblocking (with the escalation
 * notified), a PM's escalate_up, going idle (in-progress work paused, resumed later), reassign,
 * declare_coverage, notes and branch sync, the PR gate failing, an inbound PR review, the
 * auditor waiving a finding, and the board escalating a root to the CEO.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { taskBody } from '../src/modules/tasks/test-fixtures.js';
import {
  agentClient,
  dataOf,
  type GatewayApp,
  ok,
  rejected,
  startGatewayApp,
  WORK_PLAN,
} from './gateway-support.js';

let t: GatewayApp;
let projectId: string;

beforeAll(async () => {
  t = await startGatewayApp();
  projectId = await t.createProject();
});
afterAll(() => t.close());

async function openTask(fields: Record<string, unknown>): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/tasks',
    headers: t.ceoHeaders,
    payload: taskBody({ project_id: projectId, ...fields }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function force(taskId: string, status: string) {
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/tasks/${taskId}`,
    headers: t.ceoHeaders,
    payload: { status, force: true, reason: 'test setup' },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function startedBy(slug: string, team = 'backend'): Promise<string> {
  const task = await openTask({ assigned_to: slug, team });
  ok(await agentClient(t, slug).verb('i_will_work_on', { task_id: task, ...WORK_PLAN }));
  return task;
}

describe('blocked work', () => {
  it('blocks, notifies the cell PM, and the PM unblocks it back to the developer', async () => {
    const dev = agentClient(t, 'be-dev-1');
    const task = await startedBy('be-dev-1');
    const blocked = ok(
      await dev.verb('i_am_blocked', {
        task_id: task,
        reason: 'the staging database is down',
        blocker_type: 'external',
        what_needed: 'someone to restart staging',
      }),
    );
    expect(blocked).toMatchObject({
      current_state: 'blocked',
      data: { escalated_to: 'be-pm' },
      next: 'i_am_idle',
    });
    const pm = agentClient(t, 'be-pm');
    const triage = ok(await pm.verb('triage'));
    expect(triage).toMatchObject({ task_id: task, next: 'unblock' });
    expect(triage.context_briefing).toMatchObject({ pending_notifications: { unread: 1 } });
    rejected(await pm.verb('unblock', { task_id: task, reason: 'ok' }), 'incomplete_input');
    const unblocked = ok(await pm.verb('unblock', { task_id: task, reason: 'staging was restarted by ops' }));
    expect(unblocked.current_state).toBe('in_progress');
    expect(ok(await dev.verb('give_me_work'))).toMatchObject({ task_id: task, current_state: 'in_progress' });
  });

  it('steers i_am_blocked from a review queue to the right verb', async () => {
    const task = await openTask({ team: 'frontend' });
    await force(task, 'awaiting_documentation');
    const envelope = rejected(
      await agentClient(t, 'fe-doc').verb('i_am_blocked', {
        task_id: task,
        reason: 'nothing to document yet',
        blocker_type: 'question',
        what_needed: 'an answer',
      }),
      'invalid_state',
    );
    expect(envelope.remediate).toContain('i_documented');
  });

  it('lets a PM escalate up the chain', async () => {
    const task = await startedBy('fe-dev-2', 'frontend');
    const escalated = ok(
      await agentClient(t, 'fe-pm').verb('escalate_up', {
        task_id: task,
        reason: 'needs a product decision on scope',
      }),
    );
    expect(escalated).toMatchObject({ current_state: 'blocked', data: { escalated_to: 'main-pm' } });
  });
});

describe('idle and resume', () => {
  it('refuses idling with assigned work waiting, pauses work in progress, and resumes it', async () => {
    const dev = agentClient(t, 'ux-dev-1');
    const waiting = await openTask({ assigned_to: 'ux-dev-1', team: 'ux_ui' });
    const refused = rejected(await dev.verb('i_am_idle'), 'invalid_state');
    expect(refused.remediate).toContain('i_will_work_on');
    ok(await dev.verb('i_will_work_on', { task_id: waiting, ...WORK_PLAN }));
    const idle = ok(await dev.verb('i_am_idle'));
    expect(idle).toMatchObject({ status: 'idle', data: { paused_tasks: [waiting] } });
    const again = ok(await dev.verb('give_me_work'));
    expect(again).toMatchObject({ task_id: waiting, current_state: 'paused', next: 'resume' });
    expect(ok(await dev.verb('resume', { task_id: waiting })).current_state).toBe('in_progress');
  });
});

describe('PM housekeeping', () => {
  it('reassigns a task within the cell, and only to a developer of the cell', async () => {
    const task = await startedBy('be-dev-2');
    const pm = agentClient(t, 'be-pm');
    rejected(await pm.verb('reassign', { task_id: task, new_assignee: 'fe-dev-1' }), 'not_authorized');
    rejected(await pm.verb('reassign', { task_id: task, new_assignee: 'nobody-here' }), 'not_found');
    const moved = ok(await pm.verb('reassign', { task_id: task, new_assignee: 'be-dev-1' }));
    expect(moved).toMatchObject({ current_state: 'in_progress', data: { assigned_to: 'be-dev-1' } });
    const view = await t.app.inject({ url: `/api/tasks/${task}`, headers: t.ceoHeaders });
    expect(view.json()).toMatchObject({
      assigned_to: rosterMember('be-dev-1').id,
      active_claimant_id: rosterMember('be-dev-1').id,
    });
  });

  it('declares which parent criteria a subtask covers', async () => {
    const pm = agentClient(t, 'be-pm');
    const parent = await openTask({ assigned_to: 'be-pm', task_type: 'planning' });
    ok(
      await pm.verb('i_will_plan', {
        task_id: parent,
        plan: 'One leaf for the endpoint.',
        approach:
          'A single developer leaf covers the whole change: the route, its test and nothing else, because the change is small and touches one file of the API server only; QA and docs follow the usual pipeline.',
        sub_tasks: [
          {
            title: 'Endpoint',
            description: 'Add the route and its HTTP test, covering both parent criteria.',
          },
        ],
      }),
    );
    const out = ok(
      await pm.verb('delegate', {
        task_id: parent,
        title: 'Add the endpoint',
        description: 'Add GET /health with its HTTP test, as planned.',
        assigned_to: 'be-dev-1',
        task_type: 'code',
        nature: 'technical',
        complexity: 'low',
        acceptance_criteria: ['GET /health answers 200'],
        intends_to_touch: ['src/api/health.ts'],
      }),
    );
    const child = (dataOf(out).subtask as { id: string }).id;
    const missingGlobs = rejected(
      await pm.verb('delegate', {
        task_id: parent,
        title: 'Another code leaf',
        description: 'A code leaf that forgets to declare its surface.',
        assigned_to: 'be-dev-2',
        task_type: 'code',
        nature: 'technical',
        complexity: 'low',
        acceptance_criteria: ['Something works'],
        intends_to_touch: [],
      }),
      'incomplete_input',
    );
    expect(missingGlobs.missing).toEqual(['intends_to_touch']);
    rejected(
      await pm.verb('delegate', {
        task_id: parent,
        title: 'Docs leaf',
        description: 'Documentation is the documenter’s stage, never a delegated task.',
        assigned_to: 'be-dev-2',
        task_type: 'documentation',
        nature: 'technical',
        complexity: 'low',
        acceptance_criteria: ['Docs exist'],
      }),
      'invalid_state',
    );
    rejected(
      await pm.verb('declare_coverage', { task_id: child, criteria: ['not a criterion'] }),
      'incomplete_input',
    );
    const declared = ok(
      await pm.verb('declare_coverage', { task_id: child, criteria: ['GET /health answers 200'] }),
    );
    expect((dataOf(declared).parent_ac_refs as string[]).length).toBe(1);

    // The PM re-reads its task through the gateway (its only way in from the sandbox), subtasks included.
    const read = ok(await pm.tool('read_task', { task_id: parent }));
    expect(dataOf(read)).toMatchObject({
      task: { id: parent, status: 'in_progress', assigned_to: rosterMember('be-pm').id },
      subtasks: [
        { id: child, title: 'Add the endpoint', status: 'pending', assigned_to: rosterMember('be-dev-1').id },
      ],
    });
    expect(ok(await agentClient(t, 'be-dev-1').tool('read_task', { task_id: child })).data).toMatchObject({
      task: { id: child, acceptance_criteria: [{ text: 'GET /health answers 200' }] },
      subtasks: [],
    });
    // Another cell's agent may not read it.
    rejected(await agentClient(t, 'fe-dev-1').tool('read_task', { task_id: parent }), 'not_authorized');
  });

  it('keeps notes on the task and syncs the branch', async () => {
    const dev = agentClient(t, 'ux-dev-2');
    const task = await startedBy('ux-dev-2', 'ux_ui');
    ok(
      await dev.tool('note', {
        task_id: task,
        text: 'Chose a 60 s cache for the version lookup.',
        scope: 'decision',
      }),
    );
    ok(await dev.tool('note', { task_id: task, text: 'Route done, test pending.', scope: 'handoff' }));
    const view = await t.app.inject({ url: `/api/tasks/${task}`, headers: t.ceoHeaders });
    expect(view.json().notes).toMatchObject({
      journal: [{ scope: 'decision', by: 'ux-dev-2' }],
      developer_handoff: { text: 'Route done, test pending.' },
    });
    rejected(
      await agentClient(t, 'be-dev-1').tool('note', { task_id: task, text: 'drive-by' }),
      'not_authorized',
    );
    const { branch_name } = await t.taskView(task);
    expect(ok(await dev.verb('sync_branch', { task_id: task })).data).toMatchObject({
      sync: { status: 'refreshed', branch: branch_name, base: 'main', head: await t.remoteTip('main') },
    });
    const evidence = ok(await dev.tool('evidence', { task_id: task }));
    expect(evidence.evidence).toMatchObject({
      branch_name: expect.stringContaining('feature/ux_ui/'),
      commits: [],
    });
  });
});

describe('the PR reviewer', () => {
  it('fails an assembled pull request at the gate with findings', async () => {
    const task = await openTask({ task_type: 'planning', team: 'frontend' });
    await force(task, 'awaiting_pr_review');
    const gate = agentClient(t, 'fe-pr-reviewer');
    rejected(
      await gate.verb('pr_pass', {
        task_id: task,
        notes: 'Passing without a claim should not be possible at all.',
      }),
      'not_authorized',
    );
    ok(await gate.verb('claim_gate_review', { task_id: task }));
    const failed = ok(
      await gate.verb('pr_fail', {
        task_id: task,
        notes: 'The migration is missing from the cell branch.',
        findings: [
          {
            file: 'db/migrations/0004.sql',
            severity: 'blocker',
            expected: 'the migration is on the branch',
            actual: 'it is not',
            fix: 'merge the leaf that adds it',
          },
        ],
      }),
    );
    expect(failed.current_state).toBe('needs_revision');
    expect(failed.data?.findings).toHaveLength(1);
  });

  it('reviews an inbound pull request task and completes it', async () => {
    const task = await openTask({
      team: 'board',
      task_type: 'administrative',
      title: 'Review inbound PR #42',
    });
    const reviewer = agentClient(t, 'pr-reviewer-1');
    const claimed = ok(await reviewer.verb('claim_pr_review', { task_id: task }));
    expect(claimed).toMatchObject({ current_state: 'in_progress', next: 'post_pr_review' });
    const posted = ok(
      await reviewer.verb('post_pr_review', {
        task_id: task,
        body: 'The change is small and well tested; approving with one nit about naming.',
        event: 'APPROVE',
      }),
    );
    expect(posted).toMatchObject({ current_state: 'completed', data: { event: 'APPROVE' } });
  });
});

describe('the auditor and the board', () => {
  it('waives a minor finding but not a blocker', async () => {
    const task = await openTask({});
    const findings = await t.modules.findings.service.raise(task, 'qa', 1, 'be-qa', [
      { severity: 'nit', expected: 'a trailing newline', actual: 'none', fix: 'add one' },
      { severity: 'blocker', expected: 'tests pass', actual: 'they fail', fix: 'fix them' },
    ]);
    const auditor = agentClient(t, 'auditor');
    const waived = ok(
      await auditor.verb('waive_finding', {
        task_id: task,
        finding_id: findings[0]!.id.slice(0, 8),
        note: 'cosmetic',
      }),
    );
    expect(waived.data).toMatchObject({ finding: { status: 'waived' } });
    const refused = rejected(
      await auditor.verb('waive_finding', { task_id: task, finding_id: findings[1]!.id, note: 'please' }),
      'invalid_state',
    );
    expect(refused.reason).toBe('finding_not_waivable');
  });

  it('the product owner escalates a reviewed root to the CEO', async () => {
    const root = await openTask({ team: 'main_pm', task_type: 'planning' });
    await force(root, 'awaiting_pm_review');
    const owner = agentClient(t, 'product-owner');
    const triage = ok(await owner.verb('triage'));
    expect(triage).toMatchObject({ task_id: root, next: 'escalate_to_ceo' });
    const escalated = ok(
      await owner.verb('escalate_to_ceo', {
        task_id: root,
        reason: 'strategic: the CEO should sign this off',
      }),
    );
    expect(escalated).toMatchObject({
      current_state: 'awaiting_ceo_approval',
      valid_next_verbs: ['i_am_idle', 'triage'],
    });
  });
});
