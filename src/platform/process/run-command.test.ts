import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processGroupAlive } from './group.js';
import { CommandError, runCommand, TailBuffer } from './run-command.js';

const NODE = process.execPath;
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/** Whether a process still runs (zombies count as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** A node script that starts a grandchild `sleep`, writes both pids to `pids`, then waits forever. */
const HANG = `
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const child = spawn('sleep', ['300'], { stdio: 'ignore' });
writeFileSync(process.argv[1], JSON.stringify([process.pid, child.pid]));
setInterval(() => {}, 1000);
`;

async function failureOf(promise: Promise<unknown>): Promise<CommandError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CommandError);
  return error as CommandError;
}

async function pidsWritten(file: string): Promise<[number, number]> {
  await expect
    .poll(() => existsSync(file) && readFileSync(file, 'utf8').length > 0, { timeout: 10_000 })
    .toBe(true);
  return JSON.parse(readFileSync(file, 'utf8')) as [number, number];
}

describe('runCommand', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gaffer-process-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the argv without a shell, in the cwd, with exactly the given environment', async () => {
    process.env.GAFFER_PROCESS_TEST_LEAK = 'secret';
    try {
      const result = await runCommand(
        [
          NODE,
          '-e',
          'console.log(JSON.stringify({ argv: process.argv.slice(1), cwd: process.cwd(), env: process.env }))',
          ';',
          'echo pwned',
          '$(touch x)',
          '*',
        ],
        { cwd: dir, env: { ...ENV, ONLY: 'this' }, timeoutMs: 10_000 },
      );
      expect(result.exitCode).toBe(0);
      const seen = JSON.parse(result.stdout) as { argv: string[]; cwd: string; env: Record<string, string> };
      expect(seen.argv).toEqual([';', 'echo pwned', '$(touch x)', '*']);
      expect(seen.cwd).toBe(dir);
      expect(seen.env.ONLY).toBe('this');
      expect(seen.env.GAFFER_PROCESS_TEST_LEAK).toBeUndefined();
      expect(existsSync(join(dir, 'x'))).toBe(false);
    } finally {
      delete process.env.GAFFER_PROCESS_TEST_LEAK;
    }
  });

  it('answers a non-zero exit with its code and stderr instead of throwing', async () => {
    const result = await runCommand([NODE, '-e', 'console.error("registry down"); process.exit(3)'], {
      cwd: dir,
      env: ENV,
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ exitCode: 3, signal: null, truncated: false });
    expect(result.stderr.trim()).toBe('registry down');
  });

  it('keeps only the tail of a large output', async () => {
    const result = await runCommand([NODE, '-e', 'process.stdout.write("a".repeat(100000) + "THE END")'], {
      cwd: dir,
      env: ENV,
      timeoutMs: 10_000,
      maxOutputBytes: 1000,
    });
    expect(result.truncated).toBe(true);
    expect(result.stdout).toHaveLength(1000);
    expect(result.stdout.endsWith('THE END')).toBe(true);
  });

  it('kills the whole process group on timeout and settles only once it is gone', async () => {
    const file = join(dir, 'pids');
    const started = Date.now();
    const running = runCommand([NODE, '-e', HANG, file], { cwd: dir, env: ENV, timeoutMs: 1_500 });
    const [leader, grandchild] = await pidsWritten(file);
    const error = await failureOf(running);
    expect(error.failure).toBe('timeout');
    expect(error.message).toContain('timed out after 1.5 s');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(alive(leader)).toBe(false);
    expect(alive(grandchild)).toBe(false);
    expect(processGroupAlive(leader)).toBe(false);
  });

  it('kills the whole process group when the signal aborts', async () => {
    const file = join(dir, 'pids');
    const controller = new AbortController();
    const running = runCommand([NODE, '-e', HANG, file], {
      cwd: dir,
      env: ENV,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    const [leader, grandchild] = await pidsWritten(file);
    controller.abort(new Error('kill pause'));
    const error = await failureOf(running);
    expect(error.failure).toBe('aborted');
    expect(alive(leader)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it('stops what the program left running in its group when it exits', async () => {
    const file = join(dir, 'pids');
    const script = `
      const { spawn } = require('node:child_process');
      const child = spawn('sleep', ['300'], { stdio: 'ignore' });
      require('node:fs').writeFileSync(process.argv[1], JSON.stringify([process.pid, child.pid]));
      child.unref();
    `;
    const result = await runCommand([NODE, '-e', script, file], { cwd: dir, env: ENV, timeoutMs: 10_000 });
    expect(result.exitCode).toBe(0);
    const [, grandchild] = await pidsWritten(file);
    expect(alive(grandchild)).toBe(false);
  });

  it('refuses an empty argv, a NUL byte and an aborted signal without starting anything', async () => {
    expect((await failureOf(runCommand([], { cwd: dir, env: ENV, timeoutMs: 1_000 }))).failure).toBe(
      'bad_argument',
    );
    expect(
      (await failureOf(runCommand(['echo', 'a\0b'], { cwd: dir, env: ENV, timeoutMs: 1_000 }))).failure,
    ).toBe('bad_argument');
    const controller = new AbortController();
    controller.abort();
    const marker = join(dir, 'ran');
    const aborted = await failureOf(
      runCommand(['touch', marker], { cwd: dir, env: ENV, timeoutMs: 1_000, signal: controller.signal }),
    );
    expect(aborted.failure).toBe('aborted');
    expect(existsSync(marker)).toBe(false);
  });

  it('reports a program that cannot start', async () => {
    const missing = await failureOf(
      runCommand(['gaffer-no-such-program'], { cwd: dir, env: ENV, timeoutMs: 1_000 }),
    );
    expect(missing.failure).toBe('spawn_failed');
    expect(missing.message).toContain('gaffer-no-such-program could not start');
    const noCwd = await failureOf(
      runCommand([NODE, '-v'], { cwd: join(dir, 'gone'), env: ENV, timeoutMs: 1_000 }),
    );
    expect(noCwd.failure).toBe('spawn_failed');
  });
});

describe('TailBuffer', () => {
  it('keeps the last bytes across chunks', () => {
    const buffer = new TailBuffer(5);
    buffer.push(Buffer.from('abc'));
    expect(buffer.truncated).toBe(false);
    buffer.push(Buffer.from('defg'));
    buffer.push(Buffer.from('h'));
    expect(buffer.text()).toBe('defgh');
    expect(buffer.truncated).toBe(true);
  });
});
