/**
 * End to end with the scripted company: the real app listening on a real port, the dispatcher on
 * with the `scripted` runtime, a bare repository on disk as the project's remote (local forge).
 * The CEO creates one task for the main PM; from there only the dispatcher and the scripted agents
 * act — every step through the real gateway over HTTP — planning, delegating to the backend cell,
 * developing, QA (a "[fail]" title costs one revision), documenting, the PR gate, merging up the
 * chain — until the root awaits the CEO; the CEO's request for changes sends it round the pipeline
 * once more (a second cell task), and then the CEO's approve-and-merge puts both rounds on `main`.
 * Then the evidence the run left: every outcome row and scorecard figure equals what the test counts
 * itself from the audit trail with SQL; a rebuild (what `gaffer evidence rebuild` asks the server
 * for) writes the very same rows from the record alone; the scorecard routes answer bad input 422.
 */

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db/client.js';
import { apiClient, type ListeningCompany, startListeningCompany, waitForTaskStatus } from './support/e2e.js';

let company: ListeningCompany;

beforeAll(async () => {
  company = await startListeningCompany('gaffer-e2e-scripted-', {
    agentRuntime: 'scripted',
    agentProvider: 'scripted',
  });
}, 60_000);

afterAll(() => company?.close());

/** The fields of the API's answers the test reads. */
interface Answer {
  id: string;
  status: string;
  title: string;
  team: string;
  task_type: string;
  assigned_to: string | null;
  revision_count: number;
  tasks: Answer[];
  runs: { run_id: string; runtime: string; provider: string }[];
  task: { status: string };
  chunks: { stream: string; text: string }[];
  groups: { key: string | null; tasks: number; first_pass_qa: unknown; mean_rework_rounds: number | null }[];
  error: { code: string };
}

const api = apiClient<Answer>(
  () => company.base,
  () => company.ceoHeaders,
);
const remoteGit = (args: string[]) => company.remoteGit(args);
const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(company.platform.database.db, query);

/** The last runs' transcripts of the agents that took part (for a failure's message). */
async function transcripts(): Promise<string> {
  const out: string[] = [];
  for (const slug of ['main-pm', 'be-pm', 'be-dev-1', 'be-qa', 'be-doc', 'be-pr-reviewer', 'pr-reviewer-1']) {
    const runs = ((await api('GET', `/api/stream/${slug}?limit=100`)).json.runs ?? []) as {
      run_id: string;
    }[];
    for (const run of (slug === 'be-dev-1' ? runs.slice(-4) : runs.slice(0, 1)).reverse()) {
      out.push(
        JSON.stringify((await api('GET', `/api/stream/${slug}/runs/${run.run_id}`)).json).slice(0, 3000),
      );
    }
  }
  return out.join('\n');
}

const waitForStatus = (id: string, status: string) =>
  waitForTaskStatus(api, id, status, { limitMs: 120_000, pollMs: 250, explain: transcripts });

describe('the scripted company end to end', () => {
  it('takes a CEO task through the whole pipeline to the CEO and onto main', async () => {
    const mainBefore = await remoteGit(['rev-parse', 'refs/heads/main']);
    const created = await api('POST', '/api/tasks', {
      title: 'Health endpoint [fail]',
      description: 'GET /health answering the version, for the load balancer probes.',
      acceptance_criteria: ['GET /health answers 200 with the version'],
      team: 'main_pm',
      task_type: 'planning',
      nature: 'technical',
      complexity: 'medium',
      project_id: company.projectId,
      assigned_to: 'main-pm',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const root = created.json.id as string;

    await waitForStatus(root, 'awaiting_ceo_approval');
    expect(await remoteGit(['rev-parse', 'refs/heads/main'])).toBe(mainBefore);

    // The chain the scripted agents built: root → backend cell task → one leaf, each completed.
    const cells = (await api('GET', `/api/tasks?parent_task_id=${root}`)).json.tasks;
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({ team: 'backend', status: 'completed', assigned_to: expect.any(String) });
    const leaves = (await api('GET', `/api/tasks?parent_task_id=${cells[0]!.id}`)).json.tasks;
    expect(leaves).toHaveLength(1);
    const leaf = leaves[0]!;
    expect(leaf).toMatchObject({ status: 'completed', task_type: 'code' });
    // The "[fail]" title cost one QA round: the leaf went back to its developer once.
    expect(leaf.revision_count).toBe(1);

    // What the agents did is in their transcripts, every line marked as a simulation.
    const runs = (await api('GET', '/api/stream/be-dev-1')).json.runs;
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs[0]).toMatchObject({ runtime: 'scripted', provider: 'scripted' });
    const transcript = await api('GET', `/api/stream/be-dev-1/runs/${runs.at(-1)!.run_id}`);
    expect(transcript.status).toBe(200);
    const lines = transcript.json.chunks
      .filter((chunk) => chunk.stream === 'stdout')
      .flatMap((chunk) => chunk.text.split('\n').filter(Boolean));
    expect(lines).toContainEqual(expect.stringMatching(/^\[scripted\] be-dev-1: i_will_work_on task /));
    expect(lines).toContainEqual(expect.stringMatching(/^\[scripted\] be-dev-1: do\/commit task /));
    for (const line of lines) expect(line.startsWith('[scripted] ')).toBe(true);

    // The CEO asks for changes: the main PM plans again and sends one more cell task down the
    // pipeline; the root comes back to the CEO with both rounds' work on its branch.
    const sentBack = await api('POST', `/api/tasks/${root}/request-changes`, {
      reason: 'Answer with the build number as well, please.',
    });
    expect(sentBack.status, JSON.stringify(sentBack.json)).toBe(200);
    expect(sentBack.json).toMatchObject({
      status: 'needs_revision',
      assigned_to: created.json.assigned_to,
    });
    await waitForStatus(root, 'awaiting_ceo_approval');
    const rounds = (await api('GET', `/api/tasks?parent_task_id=${root}`)).json.tasks;
    expect(rounds).toHaveLength(2);
    const second = rounds.find((cell) => cell.id !== cells[0]!.id)!;
    expect(second).toMatchObject({ status: 'completed', title: 'Revision 1: Cell: Health endpoint [fail]' });
    const [secondLeaf] = (await api('GET', `/api/tasks?parent_task_id=${second.id}`)).json.tasks;
    expect(secondLeaf).toMatchObject({
      status: 'completed',
      title: 'Implement: Revision 1: Cell: Health endpoint [fail]',
    });
    expect(await remoteGit(['rev-parse', 'refs/heads/main'])).toBe(mainBefore);

    // The CEO merges: both rounds' files, the developers' and the documenters', are on main.
    const merged = await api('POST', `/api/tasks/${root}/approve-and-merge`);
    expect(merged.status, JSON.stringify(merged.json)).toBe(200);
    expect(merged.json.task.status).toBe('completed');
    const mainAfter = await remoteGit(['rev-parse', 'refs/heads/main']);
    expect(mainAfter).not.toBe(mainBefore);
    const files = (await remoteGit(['ls-tree', '-r', '--name-only', 'refs/heads/main'])).split('\n');
    const written = [leaf, secondLeaf!].flatMap(({ id }) => [
      `scripted/${id.slice(0, 8)}.md`,
      `docs/scripted/${id.slice(0, 8)}.md`,
    ]);
    expect(files).toEqual(expect.arrayContaining(['README.md', ...written]));
    const log = await remoteGit(['log', '--format=%s', 'refs/heads/main']);
    // The root lands as one commit named after it, on top of the seed.
    expect(log.split('\n').filter(Boolean)).toEqual([
      `[${root.slice(0, 8)}] Health endpoint [fail] (#3)`,
      'Initial commit',
    ]);
  }, 180_000);
});

/** The outcome rows, as the scorecards read them (without when each was written). */
const outcomeRows = () =>
  rows<Record<string, unknown>>(sql`select * from task_outcomes order by task_id`).then((all) =>
    all.map(({ updated_at: _written, ...row }) => row),
  );

describe('the evidence the company left', () => {
  beforeAll(async () => {
    // Every change's fold is stored before the figures are read.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await company.gaffer.modules.evidence.flush();
  });

  it('keeps one row per task, each count equal to the audit trail’s', async () => {
    const expected = await rows<Record<string, unknown>>(sql`
      select t.id as task_id,
        (select count(*)::int from task_events e where e.task_id = t.id and e.action = 'qa_fail') as qa_fails,
        (select count(*)::int from task_events e where e.task_id = t.id and e.action = 'pr_fail') as pr_fails,
        (select count(*)::int from task_events e where e.task_id = t.id and e.action = 'request_changes') as pm_rejections,
        (select count(*)::int from task_events e where e.task_id = t.id and e.action in ('ceo_reject', 'ceo_reject_to_pool')) as ceo_rejections,
        (select count(*)::int from agent_runs r where r.task_id = t.id) as runs,
        (select case when p is null then (case when f is null then null else false end) else (f is null or f > p) end
           from (select min(e.id) filter (where e.action = 'qa_pass') as p, min(e.id) filter (where e.action = 'qa_fail') as f
                 from task_events e where e.task_id = t.id) firsts) as qa_first_pass,
        case when t.status = 'completed' and t.parent_task_id is null then 'merged'
             when t.status = 'completed' then 'accepted'
             when t.status = 'cancelled' then 'cancelled' end as "end"
      from tasks t order by t.id`);
    const kept = await rows<Record<string, unknown>>(sql`
      select task_id, qa_fails, pr_fails, pm_rejections, ceo_rejections, runs, qa_first_pass, "end"
      from task_outcomes order by task_id`);
    expect(kept).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(5); // the root, two cell tasks and their leaves
    // The "[fail]" title cost its first leaf one QA round; the CEO sent the root back once.
    expect(expected.some((row) => row.qa_fails === 1 && row.qa_first_pass === false)).toBe(true);
    expect(expected.find((row) => row.ceo_rejections === 1)).toMatchObject({ end: 'merged' });
  });

  it('scores each role from the same record: tasks, first passes and rework', async () => {
    const { status, json } = await api('GET', '/api/workforce/scorecards?period=7d&by=role');
    expect(status).toBe(200);
    // The owner of a task is the agent that handed its work on for review (else the one who ended it).
    const expected = await rows<{ key: string | null; tasks: number; rework: number }>(sql`
      with owner as (
        select t.id, coalesce(
          (select e.actor_role from task_events e where e.task_id = t.id
             and e.action in ('submit_qa', 'submit_verification', 'submit_for_review') order by e.id desc limit 1),
          (select e.actor_role from task_events e where e.task_id = t.id
             and e.action in ('complete', 'ceo_approve', 'pr_review_done', 'docs_complete') and e.actor_role <> 'ceo'
             order by e.id desc limit 1)) as role,
          (select count(*)::int from task_events e where e.task_id = t.id
             and e.action in ('qa_fail', 'pr_fail', 'request_changes', 'ceo_reject', 'ceo_reject_to_pool')) as rework
        from tasks t where t.status in ('completed', 'cancelled'))
      select role as key, count(*)::int as tasks, sum(rework)::int as rework from owner group by role`);
    const byKey = new Map(json.groups.map((group) => [group.key, group]));
    expect(json.groups.length).toBe(expected.length);
    for (const row of expected) {
      const group = byKey.get(row.key)!;
      expect(group, String(row.key)).toBeDefined();
      expect(group.tasks).toBe(row.tasks);
      if (group.mean_rework_rounds !== null)
        expect(group.mean_rework_rounds).toBeCloseTo(row.rework / row.tasks, 10);
    }
    // Fewer than ten tasks per group here: counts, but no rates.
    expect(json.groups.every((group) => group.first_pass_qa === null)).toBe(true);

    // The tasks behind a figure are the ones it counts.
    const developer = byKey.get('developer')!;
    const listed = await api(
      'GET',
      '/api/workforce/scorecards/tasks?period=7d&by=role&key=developer&measure=tasks',
    );
    expect(listed.json.tasks).toHaveLength(developer.tasks);
    const failedFirst = await api(
      'GET',
      '/api/workforce/scorecards/tasks?period=7d&by=role&key=developer&measure=qa_failed_first',
    );
    expect(failedFirst.json.tasks.length).toBeGreaterThanOrEqual(1);
  });

  it('rebuilds the very same rows from the record alone', async () => {
    const kept = await outcomeRows();
    await company.platform.database.db.execute(sql`delete from task_outcomes`);
    const rebuilt = await api('POST', '/api/workforce/outcomes/rebuild');
    expect(rebuilt.status).toBe(200);
    expect(await outcomeRows()).toEqual(kept);
  });

  it('answers bad input with a 422 and the standard body', async () => {
    for (const query of ['period=1y', 'by=colour', 'by=role&measure=luck', 'project_id=nope', 'limit=0']) {
      const path = query.includes('measure') || query.includes('limit') ? 'scorecards/tasks' : 'scorecards';
      const { status, json } = await api('GET', `/api/workforce/${path}?${query}`);
      expect(status, query).toBe(422);
      expect(json.error.code, query).toBe('validation_failed');
    }
  });
});
