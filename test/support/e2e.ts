/**
 * Support for the end-to-end suites, where the app listens on a real port and agents (scripted, or
 * processes speaking MCP) call it over HTTP: the listening company with a bare git remote as its
 * project `shop`, a JSON client as the CEO, and a wait for a task to reach a state that, on a miss,
 * fails with every task's state and what the agents printed.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { buildApp, type Gaffer } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { projects } from '../../src/modules/projects/schema.js';
import { ProcessRuntime } from '../../src/modules/runtime/index.js';
import { GitRunner, gitText, openRepo } from '../../src/platform/git/index.js';
import { seedBareRemote, tempDirs } from '../../src/platform/git/test-support.js';
import { CEO_IDENTITY } from '../../src/platform/http/auth/identity.js';
import { staticToken } from '../../src/platform/http/auth/tokens.js';
import { agentRunLimits, agentSandbox } from '../../src/platform/process/index.js';
import { GAFFER_COMMAND } from './gaffer-cli.js';
import { createTestStores, type TestPlatform } from './stores.js';

export interface ListeningCompany {
  gaffer: Gaffer;
  platform: TestPlatform;
  /** `http://127.0.0.1:<port>`, also the gateway URL the dispatcher hands agents. */
  base: string;
  ceoHeaders: Record<string, string>;
  /** The project `shop`, whose remote is a bare repository seeded with one commit on main. */
  projectId: string;
  /** Runs git on the bare remote and answers its output. */
  remoteGit(args: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * The app listening on a free port with the dispatcher on (`config` says which runtime), and the
 * project `shop`. `beforeListen` may adjust the built app (e.g. register a runtime); `beforeBuild`
 * may write to the stores first (e.g. persist feature flags, which apply at boot).
 */
export async function startListeningCompany(
  prefix: string,
  config: Partial<Config>,
  beforeListen: (gaffer: Gaffer, platform: TestPlatform) => void = () => {},
  beforeBuild: (platform: TestPlatform) => Promise<void> = async () => {},
): Promise<ListeningCompany> {
  const dirs = tempDirs(prefix);
  const git = new GitRunner({ home: join(dirs.make(), 'home') });
  const remote = await seedBareRemote(git, join(dirs.make(), 'origin.git'), [
    { message: 'Initial commit', files: { 'README.md': '# Shop\n', 'src/server.ts': 'export {};\n' } },
  ]);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const stores = await createTestStores();
  const platform = await stores.platform({
    config: {
      host: '127.0.0.1',
      port,
      publicUrl: base,
      dispatchEnabled: true,
      dispatchIntervalSeconds: 1,
      ...config,
    },
  });
  await beforeBuild(platform);
  const gaffer = await buildApp(platform, { logger: false });
  beforeListen(gaffer, platform);
  await gaffer.app.listen({ host: '127.0.0.1', port });
  const [row] = await platform.database.db
    .insert(projects)
    .values({ slug: 'shop', name: 'Shop', gitUrl: remote, gitProvider: 'local', createdBy: 'ceo' })
    .returning({ id: projects.id });
  return {
    gaffer,
    platform,
    base,
    ceoHeaders: { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) },
    projectId: row!.id,
    remoteGit: (args) => gitText(openRepo(git, remote), args),
    async close() {
      await gaffer.app.close();
      await platform.close();
      await stores.dispose();
      dirs.cleanup();
    },
  };
}

/**
 * A `beforeListen` for agents that are processes: the process runtime as the configuration builds
 * it (the `custom` command, the kill grace, the agent sandbox), plus how to run the built `gaffer`
 * for the MCP tool server — under vitest argv[1] is vitest's, so the app cannot find its own CLI
 * the way `gaffer start` does.
 */
export function registerBuiltGafferRuntime(gaffer: Gaffer, platform: TestPlatform): void {
  const { config } = platform;
  gaffer.modules.runtime.supervisor.register(
    new ProcessRuntime({
      now: () => platform.clock.now(),
      killGraceSeconds: config.killGraceSeconds,
      providers: config.agentCommandCustom ? { custom: config.agentCommandCustom } : {},
      gafferCommand: [...GAFFER_COMMAND],
      sandbox: agentSandbox(config),
      networkAllow: config.agentNetworkAllow,
      limits: agentRunLimits(config),
    }),
  );
}

/** A port free right now (the gateway URL the dispatcher hands agents is fixed at build time). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

export type ApiCall<T> = (
  method: string,
  path: string,
  body?: object,
) => Promise<{ status: number; json: T }>;

/** JSON over HTTP to `base()` with `headers()` (the CEO's, say), both read at each call. */
export function apiClient<T>(base: () => string, headers: () => Record<string, string>): ApiCall<T> {
  return async (method, path, body) => {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { ...headers(), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as T };
  };
}

interface TaskRow {
  status: string;
  title: string;
  assigned_to: string | null;
}

/** Waits up to `limitMs` for task `id` to reach `status`; a miss fails with every task and `explain()`. */
export async function waitForTaskStatus(
  api: ApiCall<unknown>,
  id: string,
  status: string,
  options: { limitMs: number; pollMs: number; explain: () => Promise<string> },
): Promise<void> {
  const deadline = Date.now() + Number(process.env.E2E_LIMIT_MS ?? options.limitMs);
  while (Date.now() < deadline) {
    const { json } = await api('GET', `/api/tasks/${id}`);
    if ((json as TaskRow).status === status) return;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
  const { json } = await api('GET', '/api/tasks?limit=200');
  const states = (json as { tasks: TaskRow[] }).tasks.map(
    (t) => `${t.title}: ${t.status} (${t.assigned_to})`,
  );
  expect.fail(`task ${id} never reached ${status}:\n${states.join('\n')}\n${await options.explain()}`);
}
