import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type GroupLeader,
  groupGone,
  killGroup,
  ProcessStartError,
  processGroupAlive,
  signalGroup,
  startProcessGroup,
  stopGroup,
} from './group.js';

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

/**
 * A node script that starts a grandchild `sleep`, writes both pids to the file in argv[1], then
 * waits forever; with argv[2] = 'stubborn' it ignores SIGTERM (so only SIGKILL ends it).
 */
const HANG = `
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
if (process.argv[2] === 'stubborn') process.on('SIGTERM', () => {});
const child = spawn('sleep', ['300'], { stdio: 'ignore' });
writeFileSync(process.argv[1], JSON.stringify([process.pid, child.pid]));
setInterval(() => {}, 1000);
`;

async function pidsWritten(file: string): Promise<[number, number]> {
  await expect
    .poll(() => existsSync(file) && readFileSync(file, 'utf8').length > 0, { timeout: 10_000 })
    .toBe(true);
  return JSON.parse(readFileSync(file, 'utf8')) as [number, number];
}

const exitOf = (child: GroupLeader) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

describe('the process-group wrapper', () => {
  let dir: string;
  const started: number[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gaffer-group-test-'));
  });
  afterEach(() => {
    for (const pid of started.splice(0)) killGroup(pid);
    rmSync(dir, { recursive: true, force: true });
  });

  async function startHang(mode = ''): Promise<{ child: GroupLeader; leader: number; grandchild: number }> {
    const file = join(dir, `pids-${started.length}`);
    const child = await startProcessGroup([NODE, '-e', HANG, file, mode], { cwd: dir, env: ENV });
    started.push(child.pid as number);
    const [leader, grandchild] = await pidsWritten(file);
    expect(leader).toBe(child.pid);
    return { child, leader, grandchild };
  }

  it('starts the program as the leader of its own group, which the grandchild joins', async () => {
    const { leader, grandchild } = await startHang();
    const groupOf = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    };
    expect(groupOf(leader)).toBe(leader);
    expect(groupOf(grandchild)).toBe(leader);
    expect(groupOf(process.pid)).not.toBe(leader);
    expect(processGroupAlive(leader)).toBe(true);
  });

  it('stops the group with SIGTERM: the leader and its grandchild end, no SIGKILL needed', async () => {
    const { child, leader, grandchild } = await startHang();
    const exited = exitOf(child);
    const stop = stopGroup(leader, 60_000);
    expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
    stop.cancel();
    await groupGone(leader, 5_000);
    expect(stop.escalated).toBe(false);
    expect(alive(grandchild)).toBe(false);
    expect(processGroupAlive(leader)).toBe(false);
  });

  it('escalates to SIGKILL when the grace runs out, the grandchild included', async () => {
    const { child, leader, grandchild } = await startHang('stubborn');
    const exited = exitOf(child);
    let escalations = 0;
    const stop = stopGroup(leader, 200, () => {
      escalations += 1;
    });
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    await groupGone(leader, 5_000);
    expect(stop.escalated).toBe(true);
    expect(escalations).toBe(1);
    expect(alive(grandchild)).toBe(false);
  });

  it('kills at once on killNow while the grace runs', async () => {
    const { child, leader, grandchild } = await startHang('stubborn');
    const exited = exitOf(child);
    const stop = stopGroup(leader, 60_000);
    stop.killNow();
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    await groupGone(leader, 5_000);
    expect(stop.escalated).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it('killGroup ends the whole group with SIGKILL and is harmless once it is gone', async () => {
    const { child, leader, grandchild } = await startHang();
    const exited = exitOf(child);
    killGroup(leader);
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    await groupGone(leader, 5_000);
    expect(alive(grandchild)).toBe(false);
    expect(() => killGroup(leader)).not.toThrow();
    expect(() => signalGroup(leader, 'SIGTERM')).not.toThrow();
  });

  it('sparing the leader, tells the members born during the grace too, and they end in their own time', async () => {
    // the leader stands for bwrap: SIGTERM does not end it, it ends with its program, which it
    // starts only a moment after the stop was asked, and records how that program ended
    const ended = join(dir, 'ended');
    const program = `process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);`;
    const leaderScript = `
process.on('SIGTERM', () => {});
setTimeout(() => {
  const child = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(program)}], { stdio: 'ignore' });
  child.on('exit', (code, signal) => {
    require('node:fs').writeFileSync(${JSON.stringify(ended)}, code + '/' + signal);
    process.exit(0);
  });
}, 400);
setInterval(() => {}, 1000);
`;
    const child = await startProcessGroup([NODE, '-e', leaderScript], { cwd: dir, env: ENV });
    started.push(child.pid as number);
    const exited = exitOf(child);
    const stop = stopGroup(child.pid as number, 10_000, undefined, { spareLeader: true });
    expect(await exited).toEqual({ code: 0, signal: null });
    stop.cancel();
    expect(stop.escalated).toBe(false);
    // Told with SIGTERM, never killed: it exits by its handler, or — told while a loaded machine was
    // still starting it, before its handler was set — by SIGTERM's default.
    expect(['0/null', 'null/SIGTERM']).toContain(readFileSync(ended, 'utf8'));
  });

  it('rejects with a ProcessStartError naming a program that cannot start', async () => {
    const failure = await startProcessGroup(['/nonexistent/gaffer-no-such-program'], {
      cwd: dir,
      env: ENV,
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProcessStartError);
    expect((failure as ProcessStartError).message).toContain('/nonexistent/gaffer-no-such-program');
  });

  it('gives the program exactly the environment it is handed', async () => {
    process.env.GAFFER_GROUP_TEST_LEAK = 'secret';
    try {
      const child = await startProcessGroup(
        [NODE, '-e', 'process.stdout.write(JSON.stringify(process.env))'],
        { cwd: dir, env: { ...ENV, ONLY: 'this' } },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
      });
      await new Promise((resolve) => child.once('close', resolve));
      const env = JSON.parse(out) as Record<string, string>;
      expect(env.ONLY).toBe('this');
      expect(env.GAFFER_GROUP_TEST_LEAK).toBeUndefined();
    } finally {
      delete process.env.GAFFER_GROUP_TEST_LEAK;
    }
  });
});
