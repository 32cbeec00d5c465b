/**
 * The whole app on test stores with the dispatcher in it (the dispatch and usage modules are built
 * here until the registry wires them): real agent processes (a small node script whose behaviour the test picks
 * per agent: `sleep` until SIGTERM, `stubborn` ignoring SIGTERM, `exit` at once) run through the
 * runtime supervisor, a bare git repository on disk as a project's remote, and helpers to insert
 * tasks, read what each agent process saw, and call the app as the CEO or anyone.
 * Test-only; nothing imports it at run time.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, notInArray } from 'drizzle-orm';
import { insertTask, type TaskFields, type TaskRow } from '../../../test/fixtures-task-rows.js';
import { identityHeaders } from '../../../test/support/app.js';
import { createTestStores, type TestPlatform, type TestStores } from '../../../test/support/stores.js';
import { buildApp, type Gaffer } from '../../app.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock.js';
import { GitRunner } from '../../platform/git/index.js';
import { seedBareRemote } from '../../platform/git/test-support.js';
import { CEO_IDENTITY } from '../../platform/http/auth/identity.js';
import { staticToken } from '../../platform/http/auth/tokens.js';
import { agentSandbox } from '../../platform/process/index.js';
import { rosterMember } from '../agents/index.js';
import type { ProjectRow } from '../projects/index.js';
import { projects } from '../projects/schema.js';
import type { RuntimeModule } from '../runtime/index.js';
import { tasks } from '../tasks/schema.js';
import type { UsageModule } from '../usage/index.js';
import type { WorkspacesModule } from '../workspaces/index.js';
import type { DispatchModule } from './index.js';

export type Behaviour = 'sleep' | 'stubborn' | 'exit';

/** What the fake agent wrote about itself at each start. */
export interface AgentReport {
  pid: number;
  cwd: string;
  task: string | null;
  agent: string;
  token: boolean;
  gateway: string;
  prompt: string | null;
  behaviour: Behaviour;
}

const AGENT_SCRIPT = `
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
const dir = dirname(fileURLToPath(import.meta.url));
const [slug, promptFile] = process.argv.slice(2);
const chosen = join(dir, 'behave', slug);
const behaviour = existsSync(chosen) ? readFileSync(chosen, 'utf8').trim() : 'sleep';
// The SIGTERM handler goes in before the report: a test that stops the agent once it reported must
// find it in place (under load, a SIGTERM between the two killed a "stubborn" agent outright).
if (behaviour === 'stubborn') process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
else process.on('SIGTERM', () => process.exit(0));
// The agent's own home: the one place besides its worktree a sandboxed agent may write.
appendFileSync(join(process.env.HOME, 'reports.jsonl'), JSON.stringify({
  pid: process.pid,
  cwd: process.cwd(),
  task: process.env.GAFFER_TASK_ID ?? null,
  agent: process.env.GAFFER_AGENT_ID,
  token: !!process.env.GAFFER_AGENT_TOKEN,
  gateway: process.env.GAFFER_GATEWAY_URL,
  prompt: promptFile ? readFileSync(promptFile, 'utf8') : null,
  behaviour,
}) + '\\n');
console.log('ready ' + behaviour);
if (behaviour === 'exit') process.exit(0);
setInterval(() => {}, 1000);
`;

export interface DispatchTestApp extends Gaffer {
  platform: TestPlatform;
  stores: TestStores;
  runtime: RuntimeModule;
  workspaces: WorkspacesModule;
  usage: UsageModule;
  dispatch: DispatchModule;
  /** A project whose remote is a bare repository on disk (local forge). */
  project: ProjectRow;
  ceoHeaders: Record<string, string>;
  headersFor(id: string, role: string, team?: string): Record<string, string>;
  /** Roster UUID of a seeded agent. */
  idOf(slug: string): string;
  /** How the agent's next processes behave. */
  behave(slug: string, behaviour: Behaviour): void;
  /** What the agent's processes reported, oldest first. */
  reports(slug: string): AgentReport[];
  insertTask(fields?: TaskFields): Promise<TaskRow>;
  task(id: string): Promise<TaskRow>;
  /** Runs one pass of a loop now (`dispatch.tick`, `dispatch.reaper`, `dispatch.budget`), after any pass under way. */
  runLoop(name: string): Promise<string>;
  /** Between tests: every open task cancelled, every agent killed, the dispatcher's holds forgotten. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface DispatchAppOptions {
  clock?: Clock;
  /** Configuration over the harness's (dispatcher on, the fake agent as the `custom` provider). */
  config?: Partial<Config>;
}

/** The provider the fake agent is configured as (GAFFER_AGENT_COMMAND_CUSTOM is the `custom` provider). */
export const FAKE_PROVIDER = 'custom';

export async function startDispatchApp(options: DispatchAppOptions = {}): Promise<DispatchTestApp> {
  const scratch = mkdtempSync(join(tmpdir(), 'gaffer-dispatch-test-'));
  const agentDir = join(scratch, 'agents');
  mkdirSync(join(agentDir, 'behave'), { recursive: true });
  writeFileSync(join(agentDir, 'agent.mjs'), AGENT_SCRIPT.trimStart());
  const template = `"${process.execPath}" "${join(agentDir, 'agent.mjs')}" {agent_slug} {prompt_file}`;

  const stores = await createTestStores();
  const platform = await stores.platform({
    clock: options.clock,
    config: {
      agentCommandCustom: template,
      agentSandboxRead: [agentDir],
      killGraceSeconds: 1,
      dispatchEnabled: true,
      dispatchIntervalSeconds: 3600,
      agentRuntime: 'process',
      agentProvider: FAKE_PROVIDER,
      publicUrl: 'http://127.0.0.1:9',
      ...options.config,
    },
  });
  const gaffer = await buildApp(platform, { logger: false });
  const { runtime, workspaces, usage, dispatch } = gaffer.modules;
  await gaffer.app.ready();

  const remote = join(scratch, 'remote.git');
  await seedBareRemote(new GitRunner({ home: join(scratch, 'home') }), remote);
  const [project] = await platform.database.db
    .insert(projects)
    .values({ slug: 'shop', name: 'Shop', gitUrl: remote, gitProvider: 'local', createdBy: 'ceo' })
    .returning();

  return {
    ...gaffer,
    platform,
    stores,
    runtime,
    workspaces,
    usage,
    dispatch,
    project: project!,
    ceoHeaders: { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) },
    headersFor: identityHeaders(platform.secret),
    idOf: (slug) => rosterMember(slug).id,
    behave(slug, behaviour) {
      writeFileSync(join(agentDir, 'behave', slug), behaviour);
    },
    reports(slug) {
      try {
        return readFileSync(join(agentSandbox(platform.config).homeOf(slug), 'reports.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as AgentReport);
      } catch {
        return [];
      }
    },
    insertTask: (fields = {}) => insertTask(platform.database.db, fields),
    async task(id) {
      const [row] = await platform.database.db.select().from(tasks).where(eq(tasks.id, id));
      if (!row) throw new Error(`no task ${id}`);
      return row;
    },
    async runLoop(name) {
      // A pass a wake started may be under way: wait for it, so the pass run here starts after the call.
      for (let attempt = 0; ; attempt++) {
        const outcome = await gaffer.scheduler.runNow(name);
        if (outcome.status !== 'busy' || attempt === 200) return outcome.status;
        await dispatch.dispatcher.settled();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async reset() {
      // A pass under way may still spawn for a task about to be cancelled: let it finish first.
      await dispatch.dispatcher.idle();
      await platform.database.db
        .update(tasks)
        .set({ status: 'cancelled', activeClaimantId: null })
        .where(notInArray(tasks.status, ['completed', 'cancelled']));
      const wakes = dispatch.dispatcher.wakeCount;
      const stopped = (await runtime.supervisor.stopAll({ graceful: false })).length;
      // Each run's end wakes the dispatcher: wait for those wakes to arrive and be served.
      const deadline = Date.now() + 5000;
      while (dispatch.dispatcher.wakeCount < wakes + stopped && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Then until no wake (a resumed pause, a late event) has come in for a moment.
      for (let seen = -1; seen !== dispatch.dispatcher.wakeCount; ) {
        seen = dispatch.dispatcher.wakeCount;
        await dispatch.dispatcher.idle();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (runtime.supervisor.list().length > 0) await runtime.supervisor.stopAll({ graceful: false });
      for (const agent of await gaffer.modules.agents.service.list())
        dispatch.dispatcher.releaseAgent(agent.id);
    },
    async close() {
      await gaffer.app.close();
      await platform.close();
      await stores.dispose();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
