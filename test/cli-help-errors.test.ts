/**
 * The `gaffer` command's rough edges, as a person meets them (real child processes): every command
 * answers --help with its usage; an unknown option is one line plus the usage; a start that cannot
 * reach PostgreSQL or Redis, or cannot bind its port, says which in one line — no stack trace
 * unless asked for with --debug or GAFFER_LOG_LEVEL=debug.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAFFER_MAIN } from './support/gaffer-cli.js';

const run = promisify(execFile);

let dataDir: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'gaffer-cli-errors-'));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  env = { ...clean, GAFFER_DATA_DIR: dataDir, GAFFER_PORT: '0', GAFFER_LOG_LEVEL: 'warn' };
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}
async function gaffer(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [GAFFER_MAIN, ...args], {
      env: { ...env, ...extraEnv },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A loopback port nothing listens on (it was free a moment ago). */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const STACK = /^\s+at /m;
const COMMANDS = ['start', 'demo', 'migrate', 'token', 'login-url', 'config', 'agent-tools'];

describe('gaffer <command> --help', () => {
  it.each(COMMANDS)('%s --help prints its usage and exits 0', async (command) => {
    const { code, stdout, stderr } = await gaffer([command, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^usage: gaffer ${command}\\b`));
    expect(stderr).toBe('');
  });

  it('gaffer --help and gaffer help token print the usage', async () => {
    const all = await gaffer(['--help']);
    expect(all.code).toBe(0);
    for (const command of COMMANDS) expect(all.stdout).toContain(`  ${command}`);
    const token = await gaffer(['help', 'token']);
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^usage: gaffer token ceo/);
  });

  it('an unknown option or an extra argument is one line plus the usage, exit 2', async () => {
    for (const [args, option] of [
      [['token', 'be-dev-1', '--bogus'], '--bogus'],
      [['start', '--port', '9'], '--port'],
      [['config', '--bogus'], '--bogus'],
    ] as const) {
      const { code, stdout, stderr } = await gaffer([...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      const [first, blank, usage] = stderr.split('\n');
      expect(first).toBe(`gaffer ${args[0]}: unknown option '${option}'`);
      expect(blank).toBe('');
      expect(usage).toMatch(new RegExp(`^usage: gaffer ${args[0]}\\b`));
      expect(stderr).not.toMatch(STACK);
    }
    const extra = await gaffer(['migrate', 'now']);
    expect(extra.code).toBe(2);
    expect(extra.stderr.split('\n')[0]).toBe('gaffer migrate: unexpected argument "now"');
  });
});

describe('start-up failures', () => {
  it('PostgreSQL unreachable: one line naming it (password hidden) and what to check, exit 1', async () => {
    const port = await unusedPort();
    const url = `postgres://gaffer:hunter2@127.0.0.1:${port}/x`;
    for (const command of ['start', 'migrate']) {
      const { code, stderr } = await gaffer([command], { GAFFER_DATABASE_URL: url });
      expect(code, command).toBe(1);
      expect(stderr).toBe(
        `gaffer: cannot reach PostgreSQL at postgres://…@127.0.0.1:${port}/x (connection refused) — ` +
          'check GAFFER_DATABASE_URL and that the server runs\n',
      );
    }
  });

  it('Redis unreachable: one line naming it and what to check, exit 1', async () => {
    const port = await unusedPort();
    const { code, stderr } = await gaffer(['start'], { GAFFER_REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `gaffer: cannot reach Redis at redis://127.0.0.1:${port} (connection refused) — check GAFFER_REDIS_URL ` +
        'and that the server runs (unset it to use the in-process store, single replica only)\n',
    );
  });

  it('port in use: one line naming the address, exit 1', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const { code, stderr } = await gaffer(['start'], { GAFFER_PORT: String(port) });
      expect(code).toBe(1);
      expect(stderr).toBe(
        `gaffer: cannot listen on 127.0.0.1:${port} (address in use) — another process holds the port; stop it or set GAFFER_PORT\n`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('the stack trace comes only when asked for (GAFFER_LOG_LEVEL=debug or --debug)', async () => {
    const port = await unusedPort();
    const url = `postgres://gaffer@127.0.0.1:${port}/x`;
    for (const [args, extra] of [
      [['migrate'], { GAFFER_LOG_LEVEL: 'debug' }],
      [['migrate', '--debug'], {}],
    ] as const) {
      const { code, stderr } = await gaffer([...args], { GAFFER_DATABASE_URL: url, ...extra });
      expect(code).toBe(1);
      expect(stderr.split('\n')[0]).toMatch(
        /^gaffer: cannot reach PostgreSQL at postgres:\/\/…@127\.0\.0\.1:\d+\/x/,
      );
      expect(stderr).toMatch(STACK);
    }
  });
});
