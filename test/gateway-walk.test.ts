/**
 * One root task walked through the whole delivery pipeline by the gateway alone, on real git (the
 * project's remote is a bare repository; the workspaces module behind the gateway): the CEO opens it for the main PM → the main PM plans and delegates to
 * the backend cell PM → the cell PM plans and delegates a code leaf → developer → QA → documenter
 * → cell PM merges the leaf → cell PR to the gate → PR reviewer passes → cell PM merges the cell →
 * the main PM submits the root → the root gate passes → the main PM hands it to the CEO. At every
 * step the envelope's current_state is the task's state and valid_next_verbs is exactly the
 * lifecycle's list for the caller's role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Role, type TaskStatus, validVerbs } from '../src/modules/lifecycle/index.js';
import {
  agentClient,
  dataOf,
  type Envelope,
  type GatewayApp,
  ok,
  PM_PLAN,
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

/** Asserts the envelope's state and that its next verbs are the lifecycle's for the role. */
function at(envelope: Envelope, role: Role, state: TaskStatus | null): Envelope {
  ok(envelope);
  expect(envelope.current_state).toBe(state);
  expect(envelope.valid_next_verbs).toEqual(validVerbs(role, state ?? undefined));
  if (envelope.next) expect([...envelope.valid_next_verbs, 'read_a2a']).toContain(envelope.next);
  return envelope;
}

async function taskState(id: string) {
  const response = await t.app.inject({ url: `/api/tasks/${id}`, headers: t.ceoHeaders });
  return response.json() as {
    status: string;
    assigned_to: string | null;
    pr_number: number | null;
    branch_name: string | null;
  };
}

describe('a root task through the whole pipeline, by the gateway only', () => {
  it('walks every stage with the right verbs valid at each', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: t.ceoHeaders,
      payload: {
        title: 'Health endpoint for the load balancer',
        description: 'The load balancer needs GET /health answering the version, so deploys can be probed.',
        acceptance_criteria: ['GET /health answers 200 with the version', 'Operations guide documents it'],
        team: 'main_pm',
        task_type: 'planning',
        nature: 'technical',
        complexity: 'medium',
        project_id: projectId,
        assigned_to: 'main-pm',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const root = created.json().id as string;
    const rootCriteria = created.json().acceptance_criteria as { id: string }[];

    // Main PM plans the root and delegates the backend part.
    const mainPm = agentClient(t, 'main-pm');
    const work = at(await mainPm.verb('give_me_work'), 'main_pm', 'pending');
    expect(work.task_id).toBe(root);
    expect(work.next).toBe('i_will_plan');
    expect(work.context_briefing).toHaveProperty('task_handoff');
    const planned = at(
      await mainPm.verb('i_will_plan', { task_id: root, ...PM_PLAN }),
      'main_pm',
      'in_progress',
    );
    expect(planned.valid_next_verbs).toEqual(
      expect.arrayContaining(['delegate', 'submit_root', 'complete', 'escalate_up', 'unclaim']),
    );
    const delegated = at(
      await mainPm.verb('delegate', {
        task_id: root,
        title: 'Backend: health endpoint',
        description: 'Plan and deliver the health endpoint in the API server, with its documentation.',
        assigned_to: 'be-pm',
        task_type: 'planning',
        nature: 'technical',
        complexity: 'medium',
        acceptance_criteria: ['GET /health answers 200 with the version'],
        covers_parent_criteria: [rootCriteria[0]!.id],
      }),
      'main_pm',
      'in_progress',
    );
    const cell = (dataOf(delegated).subtask as { id: string }).id;
    // The root cannot be rolled up while its cell task is open.
    const early = rejected(
      await mainPm.verb('submit_root', { task_id: root, notes: 'Nothing to submit yet, surely.' }),
      'tracing_gap',
    );
    expect(early.missing).toEqual([`subtask:${cell.slice(0, 8)}`]);

    // The backend PM plans the cell task and delegates the code leaf.
    const bePm = agentClient(t, 'be-pm');
    expect(at(await bePm.verb('give_me_work'), 'cell_pm', 'pending').task_id).toBe(cell);
    at(await bePm.verb('i_will_plan', { task_id: cell, ...PM_PLAN }), 'cell_pm', 'in_progress');
    const leafOut = at(
      await bePm.verb('delegate', {
        task_id: cell,
        title: 'Add GET /health',
        description: 'Add the unauthenticated GET /health route answering the version, with a test.',
        assigned_to: 'be-dev-1',
        task_type: 'code',
        nature: 'technical',
        complexity: 'low',
        acceptance_criteria: ['GET /health answers 200', 'The body names the version'],
        intends_to_touch: ['src/api/health.ts', 'test/health.test.ts'],
      }),
      'cell_pm',
      'in_progress',
    );
    const leaf = (dataOf(leafOut).subtask as { id: string }).id;

    // The developer works the leaf: plan, commit, pull request, done.
    const dev = agentClient(t, 'be-dev-1');
    expect(at(await dev.verb('give_me_work'), 'developer', 'pending').next).toBe('i_will_work_on');
    const started = at(
      await dev.verb('i_will_work_on', { task_id: leaf, ...WORK_PLAN }),
      'developer',
      'in_progress',
    );
    expect(started.next).toBe('open_pr');
    const leafBranch = `feature/backend/${[root, cell, leaf].map((id) => id.slice(0, 8)).join('--')}`;
    expect((await taskState(leaf)).branch_name).toBe(leafBranch);
    const committed = ok(
      await dev.commitWork(leaf, 'feat(api): add the health endpoint', [
        'src/api/health.ts',
        'test/health.test.ts',
      ]),
    );
    expect((dataOf(committed).commit as { message: string }).message).toMatch(/^\[[0-9a-f]{8}\] feat\(api\)/);
    const leafCommit = `[${leaf.slice(0, 8)}] feat(api): add the health endpoint`;
    expect(await t.remoteLog(leafBranch)).toEqual([leafCommit, 'Initial commit']);
    const pr = at(await dev.verb('open_pr', { task_id: leaf }), 'developer', 'in_progress');
    expect(pr.next).toBe('i_am_done');
    const pullRequest = dataOf(pr).pull_request as { number: number; base: string };
    expect(pullRequest.base).toBe((await taskState(cell)).branch_name);
    expect((await taskState(leaf)).pr_number).toBe(pullRequest.number);
    const done = at(
      await dev.verb('i_am_done', {
        task_id: leaf,
        notes: 'GET /health answers 200 with the version; covered by an HTTP test.',
      }),
      'developer',
      'awaiting_qa',
    );
    expect(done.evidence).toMatchObject({ pr_number: expect.any(Number), commits: [expect.anything()] });
    expect(done.valid_next_verbs).not.toContain('i_am_done');

    // QA reviews and passes it, criterion by criterion.
    const qa = agentClient(t, 'be-qa');
    const qaWork = at(await qa.verb('give_me_work'), 'qa', 'awaiting_qa');
    expect(qaWork.task_id).toBe(leaf);
    expect(qaWork.next).toBe('claim_review');
    const review = at(await qa.verb('claim_review', { task_id: leaf }), 'qa', 'awaiting_qa');
    expect(review.next).toBe('pass');
    expect(review.evidence).toMatchObject({
      files_changed: [{ path: 'src/api/health.ts' }, { path: 'test/health.test.ts' }],
    });
    const criteria = (review.evidence as { acceptance_criteria: { id: string; text: string }[] })
      .acceptance_criteria;
    const partial = rejected(
      await qa.verb('pass', {
        task_id: leaf,
        notes:
          'Ran the suite and probed the endpoint by hand: 200 with the version; the test covers both criteria.',
        criteria_verified: [{ criterion: criteria[0]!.id, evidence: 'curl -i /health → 200' }],
      }),
      'incomplete_input',
    );
    expect(partial.missing).toEqual(['criteria_verified']);
    expect(partial.field_hints?.criteria_verified).toContain(criteria[1]!.text);
    at(
      await qa.verb('pass', {
        task_id: leaf,
        notes:
          'Ran the suite and probed the endpoint by hand: 200 with the version; the test covers both criteria.',
        criteria_verified: criteria.map((c) => ({
          criterion: c.text,
          evidence: 'checked with curl and the HTTP test',
        })),
      }),
      'qa',
      'awaiting_documentation',
    );

    // The documenter documents it on the branch.
    const doc = agentClient(t, 'be-doc');
    expect(at(await doc.verb('give_me_work'), 'documenter', 'awaiting_documentation').next).toBe(
      'claim_doc_task',
    );
    at(await doc.verb('claim_doc_task', { task_id: leaf }), 'documenter', 'awaiting_documentation');
    const uncommitted = rejected(
      await doc.verb('i_documented', {
        task_id: leaf,
        notes: 'Documented the health probe.',
        files: ['docs/operations.md'],
      }),
      'tracing_gap',
    );
    expect(uncommitted.missing).toEqual(['commit:docs/operations.md']);
    ok(await doc.commitWork(leaf, 'docs: document the health probe', ['docs/operations.md']));
    at(
      await doc.verb('i_documented', {
        task_id: leaf,
        notes: 'Documented the health probe.',
        files: ['docs/operations.md'],
      }),
      'documenter',
      'awaiting_pm_review',
    );

    // The cell PM merges the leaf into the cell branch and completes it.
    expect((await taskState(leaf)).assigned_to).toBe(agentClient(t, 'be-pm').id);
    at(
      await bePm.verb('complete', {
        task_id: leaf,
        notes: 'Reviewed the diff and the QA report: good to merge.',
      }),
      'cell_pm',
      'completed',
    );

    // The cell task goes up through the PR gate.
    const submitted = at(
      await bePm.verb('submit_up', {
        task_id: cell,
        notes: 'The health endpoint and its docs, reviewed leaf by leaf.',
      }),
      'cell_pm',
      'awaiting_pr_review',
    );
    expect(submitted.data).toMatchObject({ pr_waived: false });
    const gate = agentClient(t, 'be-pr-reviewer');
    const gateWork = at(await gate.verb('give_me_work'), 'pr_reviewer', 'awaiting_pr_review');
    expect(gateWork.task_id).toBe(cell);
    const claimedGate = at(
      await gate.verb('claim_gate_review', { task_id: cell }),
      'pr_reviewer',
      'awaiting_pr_review',
    );
    expect(claimedGate.next).toBe('pr_pass');
    // The leaf came into the cell branch as one squashed commit of its pull request, docs included.
    expect(claimedGate.evidence).toMatchObject({
      commits: [
        {
          message: expect.stringContaining(`[${leaf.slice(0, 8)}] Add GET /health (#${pullRequest.number})`),
        },
      ],
      files_changed: [
        { path: 'docs/operations.md' },
        { path: 'src/api/health.ts' },
        { path: 'test/health.test.ts' },
      ],
    });
    at(
      await gate.verb('pr_pass', {
        task_id: cell,
        notes: 'The assembled diff matches the plan; tests and docs are in place.',
      }),
      'pr_reviewer',
      'awaiting_pm_review',
    );
    at(
      await bePm.verb('complete', {
        task_id: cell,
        notes: 'Gate passed; merging the cell into the root branch.',
      }),
      'cell_pm',
      'completed',
    );

    // The main PM submits the root; the root gate passes; the main PM hands it to the CEO.
    at(
      await mainPm.verb('submit_root', {
        task_id: root,
        notes: 'The backend cell delivered the endpoint and its docs.',
      }),
      'main_pm',
      'awaiting_pr_review',
    );
    const rootGate = agentClient(t, 'pr-reviewer-1');
    at(await rootGate.verb('claim_gate_review', { task_id: root }), 'pr_reviewer', 'awaiting_pr_review');
    at(
      await rootGate.verb('pr_pass', {
        task_id: root,
        notes: 'Root diff reviewed against the objective; ready for the CEO.',
      }),
      'pr_reviewer',
      'awaiting_pm_review',
    );
    const triage = at(await mainPm.verb('triage_all'), 'main_pm', 'awaiting_pm_review');
    expect(triage.task_id).toBe(root);
    expect(triage.next).toBe('complete');
    at(
      await mainPm.verb('complete', {
        task_id: root,
        notes: 'Everything merged up the chain; over to the CEO.',
      }),
      'main_pm',
      'awaiting_ceo_approval',
    );

    const final = await taskState(root);
    expect(final).toMatchObject({
      status: 'awaiting_ceo_approval',
      assigned_to: null,
      pr_number: expect.any(Number),
    });
    // The real repository: the root branch holds the cell's squashed work; main is untouched.
    const rootBranch = (await taskState(root)).branch_name!;
    expect((await t.remoteLog(rootBranch))[0]).toContain(`[${cell.slice(0, 8)}]`);
    expect(await t.remoteFiles(rootBranch)).toEqual(
      expect.arrayContaining(['docs/operations.md', 'src/api/health.ts', 'test/health.test.ts']),
    );
    expect(await t.remoteLog('main')).toEqual(['Initial commit']);
    const trail = await t.app.inject({ url: `/api/tasks/${leaf}/events`, headers: t.ceoHeaders });
    const actions = (trail.json().events as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'claim',
        'start',
        'submit_verification',
        'submit_qa',
        'qa_pass',
        'docs_complete',
        'complete',
      ]),
    );
  }, 180_000); // every stage through real git: ~30 s on a 2-core machine
});
