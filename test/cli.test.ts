/** The `gaffer` command as a person runs it: a real process, real port, real data directory. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configMarkdownTable } from '../src/config.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken, verifyToken } from '../src/platform/http/auth/tokens.js';
import { GAFFER_MAIN } from './support/gaffer-cli.js';

const run = promisify(execFile);
const nodeArgs = [GAFFER_MAIN];

let dataDir: string;
let env: NodeJS.ProcessEnv;
let child: ChildProcess | undefined;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'gaffer-cli-'));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  env = { ...clean, GAFFER_DATA_DIR: dataDir, GAFFER_PORT: '0', GAFFER_LOG_LEVEL: 'warn' };
});
afterEach(async () => {
  // (A child killed by a signal has no exit code either, but it has exited.)
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  child = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `gaffer start`, returns its stdout up to the login URL, then stops it with SIGTERM. */
async function startAndStop(extraEnv: NodeJS.ProcessEnv): Promise<string> {
  child = spawn(process.execPath, [...nodeArgs, 'start'], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  const started = once(child.stdout!, 'end').then(() => false);
  const printed = new Promise<boolean>((resolve) => {
    child!.stdout!.on('data', () => {
      if (/Open the panel: (\S+)/.test(output)) resolve(true);
    });
  });
  // Stopped only once it has started (signal handlers in place): else the signal kills it outright.
  expect(
    await Promise.race([printed, started]),
    `gaffer start ended before it printed the login URL:\n${output}`,
  ).toBe(true);
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  return output;
}

describe('gaffer CLI', () => {
  it('stops on an invalid variable with a one-line message naming it', async () => {
    const failure = await run(process.execPath, [...nodeArgs, 'start'], {
      env: { ...env, GAFFER_PORT: 'eighty' },
    }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim()).toBe(
      'gaffer: invalid configuration: GAFFER_PORT: expected a whole number, got "eighty"',
    );
  });

  it('logs JSON lines when stdout is not a terminal, and readable lines with GAFFER_LOG_FORMAT=pretty', async () => {
    const json = await startAndStop({ GAFFER_LOG_LEVEL: 'info' });
    const listening = json
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((entry) => entry.msg.startsWith('Server listening at http://127.0.0.1:'));
    expect(listening).toMatchObject({ level: 30 });

    const pretty = await startAndStop({ GAFFER_LOG_LEVEL: 'info', GAFFER_LOG_FORMAT: 'pretty' });
    expect(pretty).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Server listening at http:\/\/127\.0\.0\.1:\d+$/m);
    expect(pretty).not.toMatch(/^\{/m);
    expect(pretty).toContain('Open the panel: ');
  }, 90_000);

  it.skipIf(!existsSync('/usr/bin/script'))(
    'on a terminal (auto), logs readable coloured lines',
    async () => {
      // util-linux `script` runs the command on a pseudo-terminal and copies what it prints to a file.
      const typescript = join(dataDir, 'terminal.txt');
      const command = `${process.execPath} ${GAFFER_MAIN} start`;
      child = spawn('script', ['-qfec', command, typescript], {
        env: { ...env, GAFFER_LOG_LEVEL: 'info' },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      const printed = () => (existsSync(typescript) ? readFileSync(typescript, 'utf8') : '');
      const deadline = Date.now() + 30_000;
      while (!printed().includes('Open the panel: ') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      // The server holds the data directory under its own pid: stop it as a person would, with a signal.
      const pid = Number(readFileSync(join(dataDir, 'pglite', 'gaffer.pid'), 'utf8'));
      process.kill(pid, 'SIGTERM');
      await once(child, 'exit');
      const output = printed();
      const ESC = String.fromCharCode(27);
      expect(output).toContain(`${ESC}[32mINFO${ESC}[39m: `);
      expect(output).toMatch(/\[\d\d:\d\d:\d\d\] .*INFO.*: .*Server listening at http:\/\/127\.0\.0\.1:\d+/);
      expect(output).not.toContain('{"level"');
    },
    60_000,
  );

  it('prints the configuration table', async () => {
    const { stdout } = await run(process.execPath, [...nodeArgs, 'config'], { env });
    expect(stdout.trim()).toBe(configMarkdownTable());
  });

  it('prints the CEO token for the generated secret, and expiring tokens for other identities', async () => {
    const { stdout } = await run(process.execPath, [...nodeArgs, 'token', 'ceo'], { env });
    const secret = readFileSync(join(dataDir, 'auth-secret'), 'utf8').trim();
    expect(stdout.trim()).toBe(staticToken(secret, CEO_IDENTITY));

    const agent = await run(
      process.execPath,
      [...nodeArgs, 'token', 'be-dev-1', '--role', 'developer', '--team', 'backend', '--ttl', '600'],
      { env },
    );
    const verdict = verifyToken(secret, agent.stdout.trim(), {});
    expect(verdict).toMatchObject({
      ok: true,
      subject: { id: 'be-dev-1', role: 'developer', team: 'backend' },
    });

    const bad = await run(process.execPath, [...nodeArgs, 'token', 'x', '--role', 'wizard'], { env }).catch(
      (e) => e,
    );
    expect(bad.code).toBe(2);
  });

  it('starts, serves the probes and docs, prints a working panel login URL, and stops on SIGTERM', async () => {
    child = spawn(process.execPath, [...nodeArgs, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    const deadline = Date.now() + 30_000;
    while (!/Open the panel: (\S+)/.test(output) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const login = /Open the panel: (\S+)/.exec(output)?.[1];
    expect(login).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login#token=/);
    const url = new URL(login!);
    const base = url.origin;

    for (const path of ['/health', '/ready', '/docs/', '/login']) {
      expect((await fetch(base + path)).status, path).toBe(200);
    }
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const session = await fetch(`${base}/api/auth/session`, {
      method: 'POST',
      headers: { 'x-agent-token': token },
    });
    expect(session.status).toBe(200);
    expect(session.headers.get('set-cookie')).toMatch(/gaffer_session=.*HttpOnly.*SameSite=Strict/i);

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 60_000);
});
