/**
 * `gaffer token <slug>` while `gaffer start` runs, as a newcomer does it: two real processes on one
 * data directory. On the embedded database the server holds the directory, so the CLI reads the
 * roster entry from the running server; on PostgreSQL (GAFFER_TEST_DATABASE_URL) it reads the
 * database. Either way the printed token works against the running server. When the directory is
 * held and no server answers where the configuration says, the CLI says so in one line plus a hint.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { GAFFER_MAIN } from './support/gaffer-cli.js';
import { createTestStores, type TestStores } from './support/stores.js';

const run = promisify(execFile);

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let stores: TestStores;
let env: NodeJS.ProcessEnv;
let server: ChildProcess;
let base: string;
let ceoToken: string;

beforeAll(async () => {
  stores = await createTestStores();
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  env = {
    ...clean,
    GAFFER_DATA_DIR: stores.dataDir,
    GAFFER_PORT: String(await freePort()),
    GAFFER_LOG_LEVEL: 'warn',
    GAFFER_DISPATCH_ENABLED: 'false',
    ...(stores.databaseUrl ? { GAFFER_DATABASE_URL: stores.databaseUrl } : {}),
    ...(stores.redisUrl ? { GAFFER_REDIS_URL: stores.redisUrl } : {}),
  };
  server = spawn(process.execPath, [GAFFER_MAIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 50_000;
  while (!/Open the panel: (\S+)/.test(output)) {
    if (Date.now() > deadline || server.exitCode !== null)
      throw new Error(`gaffer start did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = new URL(/Open the panel: (\S+)/.exec(output)![1]!);
  base = login.origin;
  ceoToken = new URLSearchParams(login.hash.slice(1)).get('token')!;
}, 60_000);
afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  await stores.dispose();
});

const gaffer = (...args: string[]) => run(process.execPath, [GAFFER_MAIN, ...args], { env });
const asCeo = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, {
    ...init,
    headers: { 'x-agent-token': ceoToken, 'content-type': 'application/json' },
  });

/** The identity the running server sees for this token and these headers. */
async function whoAmI(token: string, headers: Record<string, string>) {
  const response = await fetch(`${base}/api/auth/session`, {
    headers: { 'x-agent-token': token, ...headers },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The X-Agent-* headers the CLI printed to stderr. */
function printedHeaders(stderr: string): Record<string, string> {
  return Object.fromEntries(
    [...stderr.matchAll(/(X-Agent-(?:ID|Role|Team)): ([^,\s]+)/g)].map(([, name, value]) => [name!, value!]),
  );
}

describe('gaffer token <slug> while gaffer start runs', () => {
  it('prints a token for a seeded agent that the running server accepts', async () => {
    const { stdout, stderr } = await gaffer('token', 'be-dev-1');
    const agent = rosterMember('be-dev-1');
    const headers = printedHeaders(stderr);
    expect(headers).toEqual({
      'X-Agent-ID': agent.id,
      'X-Agent-Role': 'developer',
      'X-Agent-Team': 'backend',
    });
    const me = await whoAmI(stdout.trim(), headers);
    expect(me.status).toBe(200);
    expect(me.body.identity).toMatchObject({ id: agent.id, role: 'developer', team: 'backend' });
    // The same token for another identity is refused: it is signed over this agent.
    expect((await whoAmI(stdout.trim(), { ...headers, 'X-Agent-Role': 'qa' })).status).toBe(401);
  }, 60_000);

  it('works for an agent the CEO just added to the running server, and with --ttl', async () => {
    const created = await asCeo('/api/agents', {
      method: 'POST',
      body: JSON.stringify({ slug: 'night-ops', name: 'Night ops', role: 'auditor', team: null }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const { stdout, stderr } = await gaffer('token', 'night-ops', '--ttl', '600');
    const me = await whoAmI(stdout.trim(), printedHeaders(stderr));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ identity: { id, role: 'auditor' } });
    expect(me.body.expires_at).toEqual(expect.any(String));
  }, 60_000);

  it('refuses unknown and retired agents as it does offline', async () => {
    const unknown = await gaffer('token', 'no-such-agent').catch((e) => e);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no agent "no-such-agent" in the roster');
    expect((await asCeo('/api/agents/ux-qa/retire', { method: 'POST', body: '{}' })).status).toBe(200);
    const retired = await gaffer('token', 'ux-qa').catch((e) => e);
    expect(retired.code).toBe(2);
    expect(retired.stderr).toContain('"ux-qa" is retired');
  }, 60_000);

  it.skipIf(Boolean(process.env.GAFFER_TEST_DATABASE_URL))(
    'says what to do, in one line and a hint, when the directory is held and no server answers there',
    async () => {
      const elsewhere = String(await freePort());
      const failure = await run(process.execPath, [GAFFER_MAIN, 'token', 'be-dev-1'], {
        env: { ...env, GAFFER_PORT: elsewhere },
      }).catch((e) => e);
      expect(failure.code).toBe(1);
      const lines = failure.stderr.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        new RegExp(
          `^gaffer token: the embedded database is held by process ${server.pid}, and no Gaffer answers at http://127\\.0\\.0\\.1:${elsewhere} \\(connection refused\\)$`,
        ),
      );
      expect(lines[1]).toBe(
        '  hint: set GAFFER_HOST/GAFFER_PORT to where that server listens, or stop it and run gaffer token again',
      );
    },
    60_000,
  );
});
