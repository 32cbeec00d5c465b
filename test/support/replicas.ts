/**
 * Real `gaffer start` processes for the scale-out suites: N children (node on the build, as the CLI
 * suites spawn it) on one PostgreSQL database and one Redis key prefix of this test run
 * (from `createTestStores`), each on a free port with a data directory of its own and the same
 * auth secret. `start` waits until every replica's /ready answers 200; a replica can be killed
 * (SIGKILL, as a crash) and started again on the same port and data. With no PostgreSQL URL (the
 * embedded store) only one replica makes sense: the data directory is the database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CEO_IDENTITY } from '../../src/platform/http/auth/identity.js';
import { staticToken } from '../../src/platform/http/auth/tokens.js';
import { identityHeaders } from './app.js';
import { GAFFER_MAIN } from './gaffer-cli.js';
import type { TestStores } from './stores.js';

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface Replica {
  readonly index: number;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly dataDir: string;
  /** The running child (a new one after `restart`). */
  readonly child: ChildProcess;
  /** Everything the current child printed. */
  output(): string;
  /** SIGKILL: a crash. Resolves when the process is gone. */
  kill(): Promise<void>;
  /** Starts the replica again (same port, data and environment) and waits for /ready. */
  restart(): Promise<void>;
  /** SIGTERM and wait (an orderly stop). */
  stop(): Promise<void>;
  /** fetch against this replica as the CEO (JSON body when `body` is given). */
  asCeo(path: string, init?: { method?: string; body?: unknown }): Promise<Response>;
}

export interface Replicas {
  readonly replicas: Replica[];
  readonly secret: string;
  readonly ceoHeaders: Record<string, string>;
  headersFor(id: string, role: string, team?: string): Record<string, string>;
  /** Stops every replica still running (SIGTERM, then SIGKILL after 10 s) and removes their data dirs. */
  close(): Promise<void>;
}

export interface ReplicaOptions {
  /** Extra GAFFER_* variables for every replica. */
  env?: Record<string, string>;
  /** Per-replica variables (by index), over `env`. */
  envOf?: (index: number) => Record<string, string>;
  /** The data directory of replica `index` (default: a fresh temp directory; the embedded store needs `stores.dataDir`). */
  dataDirOf?: (index: number) => string;
}

export async function startReplicas(
  count: number,
  stores: TestStores,
  options: ReplicaOptions = {},
): Promise<Replicas> {
  if (count > 1 && !stores.databaseUrl) throw new Error('several replicas need PostgreSQL');
  const secret = randomBytes(32).toString('hex');
  const ceoHeaders = { 'x-agent-token': staticToken(secret, CEO_IDENTITY) };
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  const ownDirs: string[] = [];
  const replicas: Replica[] = [];
  for (let index = 0; index < count; index++) {
    const port = await freePort();
    const dataDir =
      options.dataDirOf?.(index) ??
      (stores.databaseUrl
        ? (() => {
            const dir = mkdtempSync(join(tmpdir(), `gaffer-replica-${index}-`));
            ownDirs.push(dir);
            return dir;
          })()
        : stores.dataDir);
    const env: NodeJS.ProcessEnv = {
      ...clean,
      GAFFER_DATA_DIR: dataDir,
      GAFFER_PORT: String(port),
      GAFFER_AUTH_SECRET: secret,
      GAFFER_LOG_LEVEL: 'warn',
      GAFFER_LOG_FORMAT: 'json',
      GAFFER_DISPATCH_ENABLED: 'false',
      ...(stores.databaseUrl
        ? { GAFFER_DATABASE_URL: stores.databaseUrl, GAFFER_DATABASE_POOL_SIZE: '5' }
        : {}),
      ...(stores.redisUrl
        ? { GAFFER_REDIS_URL: stores.redisUrl, GAFFER_REDIS_KEY_PREFIX: stores.keyPrefix }
        : {}),
      ...options.env,
      ...options.envOf?.(index),
    };
    replicas.push(replica(index, port, dataDir, env, ceoHeaders));
  }
  await Promise.all(replicas.map((r) => r.restart()));
  return {
    replicas,
    secret,
    ceoHeaders,
    headersFor: identityHeaders(secret),
    async close() {
      await Promise.all(replicas.map((r) => r.stop()));
      for (const dir of ownDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function replica(
  index: number,
  port: number,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  ceoHeaders: Record<string, string>,
): Replica {
  let child: ChildProcess | undefined;
  let output = '';
  const base = `http://127.0.0.1:${port}`;
  const gone = async (c: ChildProcess | undefined) => {
    if (c && c.exitCode === null && c.signalCode === null) await once(c, 'exit');
  };
  return {
    index,
    port,
    base,
    dataDir,
    get child() {
      if (!child) throw new Error(`replica ${index} never started`);
      return child;
    },
    output: () => output,
    async kill() {
      const c = child;
      c?.kill('SIGKILL');
      await gone(c);
    },
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
      await gone(c);
      clearTimeout(timer);
    },
    async restart() {
      output = '';
      const c = spawn(process.execPath, [GAFFER_MAIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      c.stdout!.on('data', (chunk) => {
        output += chunk;
      });
      c.stderr!.on('data', (chunk) => {
        output += chunk;
      });
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (c.exitCode !== null || c.signalCode !== null)
          throw new Error(`replica ${index} exited while starting:\n${output}`);
        if (Date.now() > deadline) throw new Error(`replica ${index} not ready in 60 s:\n${output}`);
        const ready = await fetch(`${base}/ready`).catch(() => undefined);
        if (ready?.status === 200) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    asCeo(path, init = {}) {
      return fetch(`${base}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          ...ceoHeaders,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    },
  };
}

/** Retries `check` until it passes or `timeoutMs` runs out (then throws its last error). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}

/** A JSON answer, read by shape in assertions. */
// biome-ignore lint/suspicious/noExplicitAny: answers are checked with toMatchObject, field by field
export type JsonAnswer = Record<string, any>;
