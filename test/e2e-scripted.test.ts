/**
 * End to end with the scripted company: the real app listening on a real port, the dispatcher on
 * with the `scripted` runtime, a bare repository on disk as the project's remote (local forge).
 * The CEO creates one task for the main PM; from there only the dispatcher and the scripted agents
 * act — every step through the real gateway over HTTP — planning, delegating to the backend cell,
 * developing, QA (a "[fail]" title costs one revision), documenting, the PR gate, merging up the
 * chain — until the root awaits the CEO; the CEO's request for changes sends it round the pipeline
 * once more (a second cell task), and then the CEO's approve-and-merge puts both rounds on `main`.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
}

const api = apiClient<Answer>(
  () => company.base,
  () => company.ceoHeaders,
);
const remoteGit = (args: string[]) => company.remoteGit(args);

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
