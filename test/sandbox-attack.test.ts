/**
 * The attack suite: a compromised agent (test/fixtures/sandbox-attack-agent.mjs), started through
 * the real process runtime as the `custom` provider on a real task worktree of a local-forge
 * project, hunts for the server's secrets, data and other agents' work, pushes to `main`, signals
 * the server — and then plays an honest developer's turn over MCP. The same hunt runs as a
 * project's dep_update_command through the dependency-update probe.
 *
 * The network half of the hunt (fixtures/network-hunt.mjs) tries PostgreSQL and Redis on
 * 127.0.0.1 (the real servers when they run here, stand-ins on loopback otherwise), the server's
 * own port (`/metrics`, `/_guard/status`, `/ws/system`, `/api/tasks` with the run's token), another
 * loopback service, and through the egress proxy a name that is not allowed (HTTP and CONNECT),
 * PostgreSQL, and an allowed name that resolves to this host — each refusal on the run's record.
 *
 * With GAFFER_AGENT_SANDBOX=on every attempt fails and the turn completes; with `off` the same
 * attempts succeed (so it is the sandbox that stops them) and /health says so.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { probeLockfiles } from '../src/modules/engines/dep-update/probe.js';
import { GitRunner } from '../src/platform/git/index.js';
import { seedBareRemote } from '../src/platform/git/test-support.js';
import { agentSandbox, probeSandbox, type SandboxMode } from '../src/platform/process/index.js';
import { insertTask } from './fixtures-task-rows.js';
import {
  apiClient,
  type ListeningCompany,
  registerBuiltGafferRuntime,
  startListeningCompany,
} from './support/e2e.js';
import { GAFFER_COMMAND } from './support/gaffer-cli.js';
import { expectedRefusals, type NetworkTargets, networkTargets } from './support/network-targets.js';

const CHECKOUT = fileURLToPath(new URL('..', import.meta.url));
const ATTACKER = join(CHECKOUT, 'test/fixtures/sandbox-attack-agent.mjs');
const FIXTURES = dirname(ATTACKER);
const COMMAND = `"${process.execPath}" "${ATTACKER}" agent {mcp_config} {prompt_file}`;
const ATTACKS = [
  'proc-environ',
  'server-proc',
  'secret-file',
  'data-dir',
  'other-worktree',
  'push-origin',
  'push-project',
  'signal-server',
  'checkout',
  'ceo-token',
];
const NETWORK_ATTACKS = [
  'postgres',
  'redis',
  'server-metrics',
  'guard-status',
  'ws-system',
  'api-tasks',
  'loopback-other',
];
/** What an unsandboxed agent reaches here: everything but the secret in an environ (the test's server has none). */
const REACHED_WITHOUT_SANDBOX = [...ATTACKS.filter((name) => name !== 'proc-environ'), ...NETWORK_ATTACKS];

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the sandbox attack suite: ${bwrap.reason}`);

interface Attempt {
  name: string;
  reached: boolean;
  detail: string;
}

interface Answer {
  run: { run_id: string; status: string };
  status: string;
  branch_name: string | null;
  chunks: { stream: string; text: string }[];
  agent_sandbox: { mode: string; ready: boolean };
  warnings: string[];
}

describe.skipIf(!bwrap.ok).each<SandboxMode>(['on', 'off'])(
  'an agent with GAFFER_AGENT_SANDBOX=%s',
  (mode) => {
    let company: ListeningCompany;
    let dataDir: string;
    let hunt: Awaited<ReturnType<typeof networkTargets>>;
    let network: NetworkTargets;
    const api = apiClient<Answer>(
      () => company.base,
      () => company.ceoHeaders,
    );

    beforeAll(async () => {
      hunt = await networkTargets();
      network = hunt.targets;
      company = await startListeningCompany(
        `gaffer-sandbox-${mode}-`,
        {
          agentRuntime: 'process',
          agentProvider: 'custom',
          agentCommandCustom: COMMAND,
          agentSandbox: mode,
          agentSandboxRead: [FIXTURES],
          agentNetworkAllow: [hunt.allow],
          dispatchEnabled: false,
          killGraceSeconds: 2,
        },
        registerBuiltGafferRuntime,
      );
      dataDir = company.platform.config.dataDir;
      // The embedded default keeps the generated secret here; another agent's worktree lies beside.
      writeFileSync(join(dataDir, 'auth-secret'), `${company.platform.secret}\n`, { mode: 0o600 });
      const other = join(dataDir, 'workspaces', 'fe-dev-1', 'shop', 'tasks', 'abcd1234');
      mkdirSync(other, { recursive: true });
      writeFileSync(join(other, 'secret.txt'), 'fe-dev-1 private work\n');
    }, 60_000);

    afterAll(async () => {
      await company?.close();
      hunt?.close();
    });

    it(`${mode === 'on' ? 'fails every attempt' : 'reaches what the sandbox would keep out'}, and the developer's turn still completes`, async () => {
      const developer = rosterMember('be-dev-1');
      const task = await insertTask(company.platform.database.db, {
        projectId: company.projectId,
        assignedTo: developer.id,
        status: 'pending',
        title: 'Write a note',
      });
      const mainBefore = await company.remoteGit(['rev-parse', 'main']);
      const targets = {
        secret: company.platform.secret,
        serverPid: process.pid,
        dataDir,
        otherWorktreeFile: join(dataDir, 'workspaces', 'fe-dev-1', 'shop', 'tasks', 'abcd1234', 'secret.txt'),
        projectRepo: (await company.remoteGit(['rev-parse', '--absolute-git-dir'])).trim(),
        checkout: CHECKOUT,
        gaffer: GAFFER_COMMAND,
        base: company.base,
        network,
      };
      const spawned = await api('POST', `/api/orchestrator/agents/${developer.slug}/spawn`, {
        task_id: task.id,
        prompt: `Write the note.\nTARGETS ${JSON.stringify(targets)}`,
      });
      expect(spawned.status, JSON.stringify(spawned.json)).toBe(201);
      const printed = await printedWhenEnded(developer.slug, spawned.json.run.run_id);
      const attempts = JSON.parse(/^ATTACK (.*)$/m.exec(printed)?.[1] ?? 'null') as Attempt[] | null;
      expect(attempts, printed).not.toBeNull();
      // Whether a write landed is seen from outside: inside, a data directory under /tmp is the
      // sandbox's private, throwaway /tmp.
      const reached = attempts!.filter((a) => a.reached && a.name !== 'write-outside').map((a) => a.name);

      if (mode === 'on') {
        expect(reached, JSON.stringify(attempts, null, 2)).toEqual([]);
        expect(await company.remoteGit(['rev-parse', 'main'])).toBe(mainBefore);
        expect(() => readFileSync(join(dataDir, 'pwned'))).toThrow();
        const turn = JSON.parse(/^TURN (.*)$/m.exec(printed)?.[1] ?? 'null');
        expect(turn, printed).toMatchObject({ ok: true });
        const { json } = await api('GET', `/api/tasks/${task.id}`);
        expect(json.status).toBe('awaiting_qa');
        expect(json.branch_name).toBeTruthy();
        const files = await company.remoteGit(['ls-tree', '-r', '--name-only', json.branch_name!]);
        expect(files.split('\n')).toContain('notes-sandbox.md');
        await expectRefusalsRecorded(developer.slug, spawned.json.run.run_id);
      } else {
        expect(reached.sort(), printed).toEqual([...REACHED_WITHOUT_SANDBOX].sort());
        expect(readFileSync(join(dataDir, 'pwned'), 'utf8')).toBe('pwned');
        expect(await company.remoteGit(['rev-parse', 'main'])).not.toBe(mainBefore);
      }
    });

    it(`${mode === 'on' ? 'keeps a dep_update_command to its clone' : 'lets a dep_update_command reach the data directory'}`, async () => {
      const scratch = join(tmpdir(), `gaffer-sandbox-dep-${mode}-${process.pid}`);
      const runner = new GitRunner({ home: join(scratch, 'home') });
      const targets = `TARGETS ${JSON.stringify({
        secret: company.platform.secret,
        serverPid: process.pid,
        dataDir,
        otherWorktreeFile: join(dataDir, 'workspaces', 'fe-dev-1', 'shop', 'tasks', 'abcd1234', 'secret.txt'),
        projectRepo: join(scratch, 'repo.git'),
        checkout: CHECKOUT,
        gaffer: GAFFER_COMMAND,
        base: company.base,
      })}`;
      // The command reads its targets from the clone it runs in.
      const repo = await seedBareRemote(runner, join(scratch, 'repo.git'), [
        {
          message: 'Initial commit',
          files: { 'package.json': '{}\n', 'package-lock.json': '{}\n', 'targets.txt': targets },
        },
      ]);
      rmSync(join(dataDir, 'pwned'), { force: true });
      try {
        const failure = await probeLockfiles({
          root: join(dataDir, 'tmp', 'dep-update'),
          gitUrl: repo,
          branch: 'main',
          argv: [process.execPath, ATTACKER, 'command', 'targets.txt'],
          paths: null,
          token: null,
          timeoutMs: 60_000,
          signal: new AbortController().signal,
          sandbox: agentSandbox(company.platform.config),
        }).then(
          () => 'no failure',
          (error: Error) => error.message,
        );
        const said = /reached: (\S+)/.exec(failure)?.[1] ?? failure;
        // A write's landing is checked from outside (inside, a data directory under /tmp is the sandbox's own /tmp).
        const reached = said.replace(/,?write-outside/, '') || 'none';
        expect(existsSync(join(dataDir, 'pwned'))).toBe(mode === 'off');
        if (mode === 'on') expect(reached).toBe('none');
        else
          expect(reached.split(',')).toEqual(
            // (Its origin is the project's repository: the first push lands, the second is not a fast-forward.)
            expect.arrayContaining(['secret-file', 'data-dir', 'other-worktree', 'push-origin', 'checkout']),
          );

        // The sandboxed command still does its job: the lockfile change is seen.
        const updated = await probeLockfiles({
          root: join(dataDir, 'tmp', 'dep-update'),
          gitUrl: repo,
          branch: 'main',
          argv: [process.execPath, '-e', "require('fs').writeFileSync('package-lock.json', '{\"v\":2}\\n')"],
          paths: null,
          token: null,
          timeoutMs: 60_000,
          signal: new AbortController().signal,
          sandbox: agentSandbox(company.platform.config),
        });
        expect(updated.kind).toBe('changed');
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });

    it(`${mode === 'on' ? 'reports the sandbox on /health with no warning' : 'warns on /health that agents can read the secrets'}`, async () => {
      const { json } = await api('GET', '/health');
      expect(json.agent_sandbox).toMatchObject({ mode, ready: mode === 'on' });
      if (mode === 'on') expect(json.warnings).toEqual([]);
      else
        expect(json.warnings.join(' ')).toMatch(
          /agents run unsandboxed and can read the server's auth secret/,
        );
    });

    /** The run's record and transcript name each refusal of the egress proxy, and /metrics counts them. */
    async function expectRefusalsRecorded(slug: string, runId: string): Promise<void> {
      const { json } = await api('GET', `/api/stream/${slug}/runs/${runId}`);
      const record = json.run as unknown as {
        blocked: { host: string; port: number; reason: string }[];
        blocked_total: number;
      };
      const blocked = record.blocked.map((b) => `${b.host}:${b.port} — ${b.reason}`);
      for (const refusal of expectedRefusals(network)) {
        expect(blocked, JSON.stringify(record)).toContainEqual(
          typeof refusal === 'string' ? refusal : expect.stringMatching(refusal),
        );
      }
      expect(record.blocked_total).toBeGreaterThanOrEqual(4);
      const notes = json.chunks.filter((chunk) => chunk.stream === 'system').map((chunk) => chunk.text);
      expect(notes.join('\n')).toContain(`blocked: 127.0.0.1:${network.postgresPort} — not on the allowlist`);
      const metrics = await (await fetch(`${company.base}/metrics`)).text();
      const notAllowed = /gaffer_agent_network_refusals_total\{kind="not_allowed"\} (\d+)/.exec(metrics)?.[1];
      expect(Number(notAllowed)).toBeGreaterThanOrEqual(3);
    }

    /** Everything the run printed on stdout, once it has ended. */
    async function printedWhenEnded(slug: string, runId: string): Promise<string> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { json } = await api('GET', `/api/stream/${slug}/runs/${runId}`);
        if (json.run.status !== 'running' || Date.now() > deadline) {
          return json.chunks
            .filter((chunk) => chunk.stream === 'stdout' || chunk.stream === 'stderr')
            .map((chunk) => chunk.text)
            .join('');
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  },
);
