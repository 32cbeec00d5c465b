/**
 * The gateway on real git: the workspaces module behind the port, a bare repository on disk as the
 * project's remote and its local forge. One root goes the whole way — main PM, backend cell PM,
 * developer (writes a file in its worktree, commits, opens the pull request), QA, documenter,
 * the cell PM merging the leaf into the cell branch, the cell PR through the gate and into the
 * root branch, the root PR through the gate — and reaches the CEO with the default branch of the
 * remote untouched; the CEO's approve-and-merge then puts it on the default branch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentClient,
  dataOf,
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
  projectId = await t.createProject('shop');
}, 60_000);
afterAll(() => t.close());

const tip = (branch: string) => t.remoteTip(branch);
const taskView = (id: string) => t.taskView(id);

describe('the gateway on real git', () => {
  it('takes a root from the main PM to the CEO’s desk, merging up the chain', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: t.ceoHeaders,
      payload: {
        title: 'Health endpoint',
        description: 'GET /health answering the version, for the load balancer probes.',
        acceptance_criteria: ['GET /health answers 200 with the version'],
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

    const mainPm = agentClient(t, 'main-pm');
    ok(await mainPm.verb('i_will_plan', { task_id: root, ...PM_PLAN }));
    const cell = (
      dataOf(
        ok(
          await mainPm.verb('delegate', {
            task_id: root,
            title: 'Backend: health endpoint',
            description: 'Deliver the health endpoint in the API server.',
            assigned_to: 'be-pm',
            task_type: 'planning',
            nature: 'technical',
            complexity: 'medium',
            acceptance_criteria: ['GET /health answers 200 with the version'],
          }),
        ),
      ).subtask as { id: string }
    ).id;
    const bePm = agentClient(t, 'be-pm');
    ok(await bePm.verb('i_will_plan', { task_id: cell, ...PM_PLAN }));
    const leaf = (
      dataOf(
        ok(
          await bePm.verb('delegate', {
            task_id: cell,
            title: 'Add GET /health',
            description: 'Add the unauthenticated GET /health route answering the version.',
            assigned_to: 'be-dev-1',
            task_type: 'code',
            nature: 'technical',
            complexity: 'low',
            acceptance_criteria: ['GET /health answers 200'],
            intends_to_touch: ['src/health.ts'],
          }),
        ),
      ).subtask as { id: string }
    ).id;

    // The developer: a real worktree, a real commit pushed, a pull request on the local forge.
    const dev = agentClient(t, 'be-dev-1');
    const started = ok(await dev.verb('i_will_work_on', { task_id: leaf, ...WORK_PLAN }));
    const branch = dataOf(started).branch_name as string;
    expect(branch).toMatch(new RegExp(`^feature/backend/.*${leaf.slice(0, 8)}$`));
    rejected(await dev.tool('commit', { task_id: leaf, message: 'wip' }), 'incomplete_input');
    await t.work('be-dev-1', leaf, { 'src/health.ts': 'export const health = () => 200;\n' });
    const commit = ok(
      await dev.tool('commit', { task_id: leaf, message: 'feat(api): add the health endpoint' }),
    );
    expect(dataOf(commit).commit).toMatchObject({
      message: `[${leaf.slice(0, 8)}] feat(api): add the health endpoint`,
    });
    expect(await tip(branch)).toBeTruthy();
    const pr = ok(await dev.verb('open_pr', { task_id: leaf }));
    expect(dataOf(pr).pull_request).toMatchObject({ number: expect.any(Number) });
    ok(
      await dev.verb('i_am_done', {
        task_id: leaf,
        notes: 'GET /health answers 200; committed with its route module.',
      }),
    );

    // QA sees the real diff; the documenter commits docs on the same branch.
    const qa = agentClient(t, 'be-qa');
    const review = ok(await qa.verb('claim_review', { task_id: leaf }));
    expect(review.evidence).toMatchObject({
      files_changed: [expect.objectContaining({ path: 'src/health.ts' })],
      pr_diff_summary: { diff: expect.stringContaining('health') },
    });
    ok(
      await qa.verb('pass', {
        task_id: leaf,
        notes: 'Read the diff and ran the route by hand: GET /health answers 200 as the criterion requires.',
        criteria_verified: [{ criterion: 'GET /health answers 200', evidence: 'route returns 200' }],
      }),
    );
    const doc = agentClient(t, 'be-doc');
    ok(await doc.verb('claim_doc_task', { task_id: leaf }));
    await t.work('be-doc', leaf, { 'HEALTH.md': '# Health\n\nGET /health answers 200.\n' });
    ok(
      await doc.tool('commit', {
        task_id: leaf,
        message: 'docs: document the health endpoint',
        files: ['HEALTH.md'],
      }),
    );
    ok(
      await doc.verb('i_documented', {
        task_id: leaf,
        notes: 'Documented the health probe.',
        files: ['HEALTH.md'],
      }),
    );

    // The cell PM merges the leaf into the cell branch.
    const cellBranch = (await taskView(cell)).branch_name as string;
    const before = await tip(cellBranch);
    ok(
      await bePm.verb('complete', {
        task_id: leaf,
        notes: 'Diff and QA report reviewed; merging into the cell.',
      }),
    );
    expect(await tip(cellBranch)).not.toBe(before);

    // The cell goes up through the gate into the root branch.
    expect(
      dataOf(
        ok(await bePm.verb('submit_up', { task_id: cell, notes: 'The health endpoint with its docs.' })),
      ),
    ).toMatchObject({
      pr_waived: false,
    });
    const gate = agentClient(t, 'be-pr-reviewer');
    ok(await gate.verb('claim_gate_review', { task_id: cell }));
    ok(
      await gate.verb('pr_pass', {
        task_id: cell,
        notes: 'The assembled diff matches the plan and includes the docs.',
      }),
    );
    const rootBranch = (await taskView(root)).branch_name as string;
    const rootBefore = await tip(rootBranch);
    ok(await bePm.verb('complete', { task_id: cell, notes: 'Gate passed; merging the cell into the root.' }));
    expect(await tip(rootBranch)).not.toBe(rootBefore);

    // The root: its PR to the default branch, the gate, then the CEO's desk — main stays as it was.
    const mainBefore = await tip('main');
    ok(
      await mainPm.verb('submit_root', {
        task_id: root,
        notes: 'The backend cell delivered the endpoint and docs.',
      }),
    );
    const rootGate = agentClient(t, 'pr-reviewer-1');
    ok(await rootGate.verb('claim_gate_review', { task_id: root }));
    ok(
      await rootGate.verb('pr_pass', {
        task_id: root,
        notes: 'Root diff reviewed against the objective; ready for the CEO.',
      }),
    );
    const handed = ok(
      await mainPm.verb('complete', { task_id: root, notes: 'Merged up the chain; over to the CEO.' }),
    );
    expect(handed.current_state).toBe('awaiting_ceo_approval');
    expect(await tip('main')).toBe(mainBefore);

    // Only the CEO merges into the default branch, only a root, only from awaiting approval.
    const approve = (id: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: `/api/tasks/${id}/approve-and-merge`, headers });
    expect((await approve(root, t.headersFor('main-pm', 'main_pm', 'main_pm'))).statusCode).toBe(403);
    const notRoot = await approve(leaf, t.ceoHeaders);
    expect(notRoot.statusCode).toBe(409);
    expect(notRoot.json().error.code).toBe('invalid_state');
    expect(await tip('main')).toBe(mainBefore);

    const rootFiles = await t.remoteFiles(rootBranch);
    expect(rootFiles.length).toBeGreaterThan(0);
    const merged = await approve(root, t.ceoHeaders);
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json().task.status).toBe('completed');
    const mainAfter = await tip('main');
    expect(mainAfter).not.toBe(mainBefore);
    expect(merged.json().merge_sha).toBe(mainAfter);
    expect(await t.remoteFiles('main')).toEqual(expect.arrayContaining(rootFiles));
    expect((await approve(root, t.ceoHeaders)).statusCode).toBe(409); // completed: nothing to approve
  }, 120_000);
});
