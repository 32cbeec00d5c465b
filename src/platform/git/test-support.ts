/**
 * Test helpers for real git: temp directories, a bare remote seeded with commits, a loopback
 * smart-HTTP git server (`git http-backend` behind a token check) and a server that never answers.
 * Used by the git, forge and workspaces suites; never imported by production code.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commitStaged, stage } from './commit.js';
import { push } from './remote.js';
import { cloneRepo, createBranch, initRepo } from './repo.js';
import { GitRunner, type GitSpawn } from './runner.js';

export const TEST_IDENTITY = { name: 'Test Seeder', email: 'seeder@example.test' };

/** Temp directories removed by `cleanup()`. */
export function tempDirs(prefix = 'gaffer-git-test-') {
  const made: string[] = [];
  return {
    make(): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A runner whose every spawned argv and env is recorded. */
export function recordingRunner(home: string): { runner: GitRunner; spawns: GitSpawn[] } {
  const spawns: GitSpawn[] = [];
  return { runner: new GitRunner({ home, onSpawn: (s) => spawns.push(s) }), spawns };
}

/** Writes files (path → content) under `dir`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/**
 * A bare repository at `dir` whose `branch` (default main) holds one commit per entry of
 * `commits`, each writing its files.
 */
export async function seedBareRemote(
  runner: GitRunner,
  dir: string,
  commits: ReadonlyArray<{ message: string; files: Record<string, string | Buffer> }> = [
    { message: 'Initial commit', files: { 'README.md': '# Seed\n' } },
  ],
  branch = 'main',
): Promise<string> {
  await initRepo(runner, dir, { bare: true, initialBranch: branch });
  const work = mkdtempSync(join(tmpdir(), 'gaffer-git-seed-'));
  try {
    const repo = await initRepo(runner, join(work, 'w'), { initialBranch: branch });
    for (const commit of commits) {
      writeFiles(repo.dir, commit.files);
      await stage(repo);
      await commitStaged(repo, { message: commit.message, author: TEST_IDENTITY });
    }
    await push(repo, { remote: dir, refspecs: [`refs/heads/${branch}:refs/heads/${branch}`] });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/** Adds a commit to `branch` of a remote (creating the branch from `from` when it is new). */
export async function commitToRemote(
  runner: GitRunner,
  remote: string,
  branch: string,
  files: Record<string, string | Buffer>,
  message = 'Remote change',
  from = branch,
): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gaffer-git-seed-'));
  try {
    const repo = await cloneRepo(runner, { url: remote, dir: join(work, 'w'), branch: from });
    if (from !== branch) await createBranch(repo, branch, { checkout: true });
    writeFiles(repo.dir, files);
    await stage(repo);
    await commitStaged(repo, { message, author: TEST_IDENTITY });
    await push(repo, { refspecs: [`HEAD:refs/heads/${branch}`] });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>/<name>` for a bare repository `<root>/<name>`. */
  urlFor(name: string): string;
  /** Authorization header values received, in order. */
  readonly authorizations: string[];
  /** Request paths with query, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * Serves the bare repositories under `root` over git's smart HTTP protocol on loopback, refusing
 * any request without `Authorization: Basic base64(<username>:<token>)` (401 + a Basic challenge).
 */
export async function startGitHttpServer(
  root: string,
  credentials: { token: string; username?: string },
): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`${credentials.username ?? 'x-access-token'}:${credentials.token}`).toString('base64')}`;
  const authorizations: string[] = [];
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    const authorization = request.headers.authorization ?? '';
    authorizations.push(authorization);
    if (authorization !== expected) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('unauthorized');
      return;
    }
    answerWithHttpBackend(request, response, {
      root,
      pathInfo: url.pathname,
      query: url.search,
      remoteUser: 'gaffer-test',
    });
  });
  await listen(server);
  const port = (server.address() as AddressInfo).port;
  return {
    urlFor: (name) => `http://127.0.0.1:${port}/${name}`,
    authorizations,
    requests,
    close: () => closeServer(server),
  };
}

/**
 * Answers one smart-HTTP request with the real `git http-backend` (spawned with a CGI environment,
 * no shell) over the bare repositories under `root`.
 */
export function answerWithHttpBackend(
  request: IncomingMessage,
  response: ServerResponse,
  target: { root: string; pathInfo: string; query: string; remoteUser: string },
): void {
  const body: Buffer[] = [];
  request.on('data', (chunk: Buffer) => body.push(chunk));
  request.on('end', () => {
    const input = Buffer.concat(body);
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: target.root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        HOME: target.root,
        PATH_INFO: target.pathInfo,
        QUERY_STRING: target.query.replace(/^\?/, ''),
        REQUEST_METHOD: request.method ?? 'GET',
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        CONTENT_LENGTH: String(input.length),
        HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_USER: target.remoteUser,
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    const out: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    cgi.stderr.resume();
    cgi.stdin.on('error', () => {});
    cgi.stdin.end(input);
    cgi.on('error', () => response.writeHead(500).end());
    cgi.on('close', () => writeCgiResponse(Buffer.concat(out), response));
  });
}

function writeCgiResponse(raw: Buffer, response: ServerResponse): void {
  let split = raw.indexOf('\r\n\r\n');
  let gap = 4;
  if (split < 0) {
    split = raw.indexOf('\n\n');
    gap = 2;
  }
  const head = split < 0 ? '' : raw.subarray(0, split).toString('utf8');
  const headers: Record<string, string> = {};
  let status = 200;
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
    else headers[name] = value;
  }
  response.writeHead(status, headers).end(split < 0 ? raw : raw.subarray(split + gap));
}

/** A loopback HTTP server that accepts connections and never answers: for abort and timeout tests. */
export async function startSilentServer(): Promise<{
  url: string;
  connections: () => number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer(() => {});
  server.on('connection', (socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/repo.git`,
    connections: () => count,
    async close() {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
