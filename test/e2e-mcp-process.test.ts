/**
 * End to end over MCP with real processes: the real app listening on a real port, the dispatcher
 * on with the `process` runtime and a `custom` provider whose agent CLI is a small node program
 * (test/fixtures/mcp-agent-e2e.mjs). Each spawn starts that program in the task worktree; it reads
 * the MCP configuration the runtime wrote, starts `gaffer agent-tools --role <route>` from it as a
 * real MCP client (the SDK's Client over stdio) and plays its role by calling the MCP tools, which
 * forward to the gateway. A bare repository on disk is the project's remote. The CEO creates one
 * task for the main PM; from there only the dispatcher and these agents act, until the root awaits
 * the CEO, whose approve-and-merge puts the agents' files on `main`.
 */

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  type ListeningCompany,
  registerBuiltGafferRuntime,
  startListeningCompany,
  waitForTaskStatus,
} from './support/e2e.js';

const REPO = new URL('..', import.meta.url).pathname;
const AGENT_SCRIPT = join(REPO, 'test/fixtures/mcp-agent-e2e.mjs');
const AGENT_COMMAND = `"${process.execPath}" "${AGENT_SCRIPT}" {mcp_config}`;
const SLUGS = ['main-pm', 'be-pm', 'be-dev-1', 'be-qa', 'be-doc', 'be-pr-reviewer', 'pr-reviewer-1'];

let company: ListeningCompany;

beforeAll(async () => {
  company = await startListeningCompany(
    'gaffer-e2e-mcp-',
    {
      agentRuntime: 'process',
      agentProvider: 'custom',
      agentCommandCustom: AGENT_COMMAND,
      // The fixture (and the MCP client beside it) is readable in the agent sandbox.
      agentSandboxRead: [join(REPO, 'test/fixtures')],
      killGraceSeconds: 2,
    },
    registerBuiltGafferRuntime,
  );
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

/** The lines an agent's run printed on `stream`. */
async function printedBy(slug: string, runId: string, stream = 'stdout'): Promise<string[]> {
  const { json } = await api('GET', `/api/stream/${slug}/runs/${runId}`);
  return json.chunks
    .filter((chunk) => chunk.stream === stream)
    .flatMap((chunk) => chunk.text.split('\n').filter(Boolean));
}

/** Every run's output of the agents that took part (for a failure's message). */
async function transcripts(): Promise<string> {
  const out: string[] = [];
  for (const slug of SLUGS) {
    for (const run of (await api('GET', `/api/stream/${slug}?limit=100`)).json.runs ?? []) {
      const lines = [
        ...(await printedBy(slug, run.run_id)),
        ...(await printedBy(slug, run.run_id, 'stderr')),
      ];
      out.push(`── ${slug} ${run.run_id}\n${lines.join('\n').slice(0, 3000)}`);
    }
  }
  return out.join('\n');
}

const waitForStatus = (id: string, status: string) =>
  waitForTaskStatus(api, id, status, { limitMs: 240_000, pollMs: 500, explain: transcripts });

describe('the company of MCP-speaking agent processes end to end', () => {
  it('takes a CEO task through the whole pipeline over MCP to the CEO and onto main', async () => {
    const mainBefore = await remoteGit(['rev-parse', 'refs/heads/main']);
    const created = await api('POST', '/api/tasks', {
      title: 'Health endpoint',
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
    const root = created.json.id;

    await waitForStatus(root, 'awaiting_ceo_approval');
    expect(await remoteGit(['rev-parse', 'refs/heads/main'])).toBe(mainBefore);

    // The chain the agents built: root → backend cell task → one code leaf, each completed.
    const cells = (await api('GET', `/api/tasks?parent_task_id=${root}`)).json.tasks;
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({ team: 'backend', status: 'completed' });
    const leaves = (await api('GET', `/api/tasks?parent_task_id=${cells[0]!.id}`)).json.tasks;
    expect(leaves).toHaveLength(1);
    const leaf = leaves[0]!;
    expect(leaf).toMatchObject({ status: 'completed', task_type: 'code' });

    // The developer was an agent process of the custom provider that worked through MCP tools.
    const runs = (await api('GET', '/api/stream/be-dev-1')).json.runs;
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs[0]).toMatchObject({ runtime: 'process', provider: 'custom' });
    const lines = (await Promise.all(runs.map((run) => printedBy('be-dev-1', run.run_id)))).flat();
    expect(lines).toContainEqual(expect.stringMatching(/^\[mcp-agent\] be-dev-1: mcp tools: .*\bcommit\b/));
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^\\[mcp-agent\\] be-dev-1: mcp i_will_work_on task ${leaf.id.slice(0, 8)} → `),
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^\[mcp-agent\] be-dev-1: mcp commit task /));
    expect(lines).toContainEqual(expect.stringMatching(/^\[mcp-agent\] be-dev-1: mcp i_am_done task .* → /));

    // The CEO merges: the developer's file and the documenter's are on main.
    const merged = await api('POST', `/api/tasks/${root}/approve-and-merge`);
    expect(merged.status, JSON.stringify(merged.json)).toBe(200);
    expect(merged.json.task.status).toBe('completed');
    expect(await remoteGit(['rev-parse', 'refs/heads/main'])).not.toBe(mainBefore);
    const files = (await remoteGit(['ls-tree', '-r', '--name-only', 'refs/heads/main'])).split('\n');
    const id8 = leaf.id.slice(0, 8);
    expect(files).toEqual(expect.arrayContaining(['README.md', `mcp/${id8}.md`, `docs/mcp/${id8}.md`]));
    const log = (await remoteGit(['log', '--format=%s', 'refs/heads/main'])).split('\n').filter(Boolean);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(new RegExp(`^\\[${root.slice(0, 8)}\\] Health endpoint \\(#\\d+\\)$`));
    expect(log[1]).toBe('Initial commit');
  }, 300_000);
});
