/**
 * `gaffer demo` as a person runs it: a real process on a temp data directory and port 0. It prints
 * the login URL, has registered the sample project and created the sample task for the main PM,
 * and the scripted company carries that task to the CEO's desk while the demo prints each move;
 * the request-changes command it prints sends the task round once more, and the approve command
 * works as printed; SIGTERM stops it cleanly.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { GAFFER_MAIN } from './support/gaffer-cli.js';

let child: ChildProcess | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, limitMs: number): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('gaffer demo', () => {
  it('starts the scripted company on a sample project and task that reaches the CEO', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gaffer-demo-'));
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
    const env = { ...clean, GAFFER_DATA_DIR: dataDir, GAFFER_PORT: '0', GAFFER_LOG_LEVEL: 'warn' };
    child = spawn(process.execPath, [GAFFER_MAIN, 'demo'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    const login = await until(
      'the login URL',
      async () => /Open the panel: (\S+)/.exec(output)?.[1],
      60_000,
    ).catch((error) => {
      throw new Error(`${error.message}; output:\n${output}`);
    });
    expect(output).toContain('SCRIPTED');
    const url = new URL(login);
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const get = async (path: string) => {
      const response = await fetch(`${url.origin}${path}`, { headers: { 'x-agent-token': token } });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };

    expect(existsSync(join(dataDir, 'demo', 'sample-shop.git', 'HEAD'))).toBe(true);
    const project = await get('/api/projects/sample-shop');
    expect(project.status).toBe(200);
    expect(project.json).toMatchObject({ slug: 'sample-shop', git_provider: 'local' });
    const taskId = /Sample task: .* \(([0-9a-f-]{36})\)/.exec(output)?.[1];
    expect(taskId).toBeTruthy();
    const task = await get(`/api/tasks/${taskId}`);
    expect(task.json).toMatchObject({
      project_id: project.json.id,
      title: 'Health endpoint for the sample shop',
      created_by: '00000000-0000-0000-0000-000000000001',
    });

    const approve = await until(
      'the approve command',
      async () => /or approve and merge it from here.*\n\s+(curl .+)\n/.exec(output)?.[1],
      120_000,
    ).catch((error) => {
      throw new Error(`${error.message}; output:\n${output}`);
    });
    expect((await get(`/api/tasks/${taskId}`)).json.status).toBe('awaiting_ceo_approval');
    // The developers' work is the demo's experiment: its developer task got an arm, and ran its model.
    expect(output).toContain('compare the arms on the Workforce page: http://127.0.0.1:');
    const [experiment] = (await get('/api/workforce/experiments')).json.experiments as {
      role: string;
      status: string;
      arms: Record<'a' | 'b', { model: string; tasks: number }>;
    }[];
    expect(experiment).toMatchObject({
      role: 'developer',
      status: 'running',
      arms: { a: { model: 'scripted-careful' }, b: { model: 'scripted-hasty' } },
    });
    expect(experiment!.arms.a.tasks + experiment!.arms.b.tasks).toBeGreaterThanOrEqual(1);
    // The panel page to review it on, which the printed login link (or a session) opens.
    const review = /Review its change in the panel.*\n\s+(http\S+)\n/.exec(output)?.[1];
    expect(review).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/tasks/${taskId}/changes$`));

    // The moves of the sample task, in order, each with its state, agent and verb.
    const title = 'Health endpoint for the sample shop';
    const moves = [...output.matchAll(/^move: "(.+)" (?:(\S+) → )?(\S+) by (\S+) \((\S+)\)$/gm)].map(
      ([line, task, from, to, agent, verb]) => ({ line, task, from, to, agent, verb }),
    );
    const root = moves.filter((m) => m.task === title);
    expect(root[0]).toMatchObject({ from: 'new', to: 'pending', agent: 'ceo', verb: 'create' });
    expect(root[1]).toMatchObject({ from: 'pending', to: 'claimed', agent: 'main-pm', verb: 'claim' });
    const columns = root.map((m) => m.to).filter((to, i, all) => to !== all[i - 1]);
    expect(columns).toEqual([
      'pending',
      'claimed',
      'in_progress',
      'awaiting_pr_review',
      'awaiting_pm_review',
      'awaiting_ceo_approval',
    ]);
    expect(root.at(-1)).toMatchObject({ agent: 'main-pm', to: 'awaiting_ceo_approval' });
    // The subtasks' moves are shown too: development, QA and documentation by their agents.
    const sub = moves.filter((m) => m.task !== title);
    expect(sub.map((m) => m.to)).toEqual(
      expect.arrayContaining(['in_progress', 'awaiting_qa', 'awaiting_documentation', 'completed']),
    );
    expect(sub.find((m) => m.verb === 'qa_pass')?.from).toBe('awaiting_qa');
    expect(output.indexOf(root.at(-1)!.line)).toBeLessThan(output.indexOf(approve));

    // The printed request for changes sends it round again: the main PM delegates a revision, whose
    // moves are printed too, and the task comes back before the CEO with the commands again.
    const requestChanges = /or send it back for changes.*\n\s+(curl .+)\n/.exec(output)?.[1];
    expect(requestChanges).toBeTruthy();
    const { stdout: sent } = await promisify(execFile)('sh', ['-c', requestChanges!]);
    expect(JSON.parse(sent)).toMatchObject({ id: taskId, status: 'needs_revision' });
    await until(
      'the task back before the CEO',
      async () => (output.match(/The sample task awaits the CEO\./g)?.length === 2 ? true : undefined),
      120_000,
    ).catch((error) => {
      throw new Error(`${error.message}; output:\n${output}`);
    });
    expect(output).toContain(`move: "${title}" awaiting_ceo_approval → needs_revision by ceo (ceo_reject)`);
    expect(output).toMatch(
      /^move: "Implement: Revision 1: Cell: Health endpoint for the sample shop" awaiting_qa → awaiting_documentation by \S+ \(qa_pass\)$/m,
    );
    expect((await get(`/api/tasks/${taskId}`)).json.status).toBe('awaiting_ceo_approval');

    // The printed command approves and merges, and the demo prints that move too.
    const { stdout } = await promisify(execFile)('sh', ['-c', approve]);
    expect(JSON.parse(stdout)).toMatchObject({ task: { id: taskId, status: 'completed' } });
    await until(
      'the approval move',
      async () =>
        output.includes(`move: "${title}" awaiting_ceo_approval → completed by ceo (ceo_approve)`)
          ? true
          : undefined,
      30_000,
    ).catch((error) => {
      throw new Error(`${error.message}; output:\n${output}`);
    });

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 330_000);
});
