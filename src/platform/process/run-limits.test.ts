import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  cgroupDir,
  parseMountInfo,
  parseProcCgroup,
  procsOf,
  removeStaleParents,
  tryRmdir,
} from './cgroup-files.js';
import { createV2Run, enableControllers, locateV2, prepareV2Parent } from './cgroup-v2.js';
import { type GroupLeader, startProcessGroup, stopGroup } from './group.js';
import { CgroupRun, enterCgroupArgv } from './run-cgroup.js';
import {
  createRunCgroup,
  defaultCpuCores,
  defaultRunLimits,
  probeRunLimits,
  type RunLimitBreach,
  type RunLimits,
  RunLimitsError,
  type RunLimitsHandle,
  rlimitArgv,
} from './run-limits.js';

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const SMALL: RunLimits = { maxProcesses: 20, memoryMb: 256, cpuCores: 1, wallSeconds: 30 };
const state = await probeRunLimits();
const cgroups = state.mechanism !== 'rlimits';
if (!cgroups) console.warn(`run-limits: the cgroup tests are skipped here: ${state.reason}`);

const started: GroupLeader[] = [];
const handles: RunLimitsHandle[] = [];
/** This process's run parents: a test worker is ended without its 'exit' hooks, so they go here. */
const parents = new Set<string>();
let serial = 0;

interface Started {
  child: GroupLeader;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Once its output is all read too ('exit' may come before the last of stderr). */
  closed: Promise<void>;
}

/** Starts `argv` as the runtime does: a process group, its output drained. */
async function start(argv: string[]): Promise<Started> {
  const child = await startProcessGroup(argv, { cwd: tmpdir(), env: ENV });
  started.push(child);
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (data: Buffer) => {
    stderr += data.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, stderr: () => stderr, exited, closed };
}

async function limited(limits: RunLimits): Promise<RunLimitsHandle> {
  const handle = await createRunCgroup(`test-${process.pid}-${++serial}`, limits);
  handles.push(handle);
  for (const dir of dirsOf(handle)) parents.add(dirname(dir));
  return handle;
}

/** The run's cgroup directories, as its launcher names them. */
function dirsOf(handle: RunLimitsHandle): string[] {
  const argv = handle.launcher(['true']);
  return argv.slice(argv.indexOf('gaffer-run-limits') + 1, argv.indexOf('--')).map((file) => dirname(file));
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '');
  } catch {
    return false;
  }
}

const breachOf = (handle: RunLimitsHandle, options?: { wallGraceMs?: number }, onBreach = () => {}) =>
  new Promise<{ breach: RunLimitBreach; at: number }>((resolve) =>
    handle.watch((breach) => {
      onBreach();
      resolve({ breach, at: Date.now() });
    }, options),
  );

async function until(check: () => boolean, limitMs = 3000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

afterEach(async () => {
  for (const child of started.splice(0)) if (child.pid) stopGroup(child.pid, 0);
  await Promise.all(handles.splice(0).map((handle) => handle.release()));
});

describe.skipIf(!cgroups)(`run limits through ${state.mechanism} (real kernel)`, () => {
  afterAll(() => {
    for (const dir of parents) tryRmdir(dir);
  });

  it('stops a run that forks past its process cap, and kills its leftovers', async () => {
    const handle = await limited(SMALL);
    const [dir] = dirsOf(handle);
    const run = await start(
      handle.launcher(['/bin/sh', '-c', 'i=0; while [ $i -lt 100 ]; do sleep 30 & i=$((i+1)); done; wait']),
    );
    const { breach } = await breachOf(handle);
    expect(breach).toEqual({
      limit: 'processes',
      detail: 'stopped: the run reached its cap of 20 processes (GAFFER_AGENT_MAX_PROCESSES)',
    });
    // the handle kills what the run left (the sleepers), before any release
    await until(() => procsOf(dir!).length === 0);
    expect(procsOf(dir!)).toEqual([]);
    await run.exited;
    await handle.release();
    for (const path of dirsOf(handle)) expect(existsSync(path)).toBe(false);
  }, 10_000);

  it('holds the cap while the host goes on, and release leaves no process and no cgroup', async () => {
    const handle = await limited(SMALL);
    const dirs = dirsOf(handle);
    const run = await start(
      handle.launcher(['/bin/sh', '-c', 'i=0; while [ $i -lt 100 ]; do sleep 30 & i=$((i+1)); done; wait']),
    );
    // no watch: the kernel alone refuses the 21st task, and the shell gives up
    const exit = await run.exited;
    expect(exit.code).not.toBe(0);
    // 'exit' may come before the last of stderr is read, and the sleepers keep the pipe open (no
    // 'close' to wait for): give what the shell wrote a moment to arrive.
    await until(() => /fork/i.test(run.stderr()));
    expect(run.stderr()).toMatch(/fork/i);
    const sleepers = procsOf(dirs[0]!);
    expect(sleepers.length).toBeGreaterThan(10);
    expect(sleepers.length).toBeLessThan(20);
    expect(spawnSync('/bin/true').status).toBe(0);
    expect(handle.breach()?.limit).toBe('processes');
    await handle.release();
    expect(sleepers.filter(alive)).toEqual([]);
    for (const dir of dirs) expect(existsSync(dir)).toBe(false);
    await handle.release(); // idempotent, never throws
  }, 10_000);

  it('reports a run OOM-killed past its memory cap', async () => {
    const handle = await limited({ ...SMALL, maxProcesses: 512, memoryMb: 64 });
    const grow = 'const kept = []; for (;;) kept.push(Buffer.alloc(1 << 20, 1));';
    const run = await start(handle.launcher([process.execPath, '-e', grow]));
    const seen = breachOf(handle);
    expect((await run.exited).signal).toBe('SIGKILL');
    expect((await seen).breach).toEqual({
      limit: 'memory',
      detail: 'stopped: the run used its 64 MB of memory (GAFFER_AGENT_MEMORY_MB)',
    });
    expect(handle.breach()?.limit).toBe('memory');
  }, 10_000);

  it('stops a run at its wall time', async () => {
    const handle = await limited({ ...SMALL, wallSeconds: 1 });
    const run = await start(handle.launcher(['sleep', '30']));
    const begun = Date.now();
    const { breach, at } = await breachOf(handle);
    expect(breach).toEqual({
      limit: 'wall_time',
      detail: 'stopped: the run reached its wall-time limit of 1 s (GAFFER_AGENT_MAX_RUN_SECONDS)',
    });
    expect(at - begun).toBeGreaterThanOrEqual(950);
    expect(at - begun).toBeLessThan(2500);
    expect((await run.exited).signal).toBe('SIGKILL');
  }, 10_000);

  it("gives the caller's graceful stop the wall-time grace, then kills", async () => {
    const handle = await limited({ ...SMALL, wallSeconds: 0.3 });
    const stubborn = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);";
    const run = await start(handle.launcher([process.execPath, '-e', stubborn]));
    await new Promise((resolve) => setTimeout(resolve, 150)); // its SIGTERM handler is set
    const pid = run.child.pid!;
    // as the runtime would: SIGTERM now, its own SIGKILL far away
    const seen = breachOf(handle, { wallGraceMs: 400 }, () => stopGroup(pid, 60_000));
    const { at } = await seen;
    const exit = await run.exited;
    expect(exit.signal).toBe('SIGKILL');
    expect(Date.now() - at).toBeGreaterThanOrEqual(350);
  }, 10_000);

  it('sweeps the empty cgroups a server that no longer runs left behind', async () => {
    const handle = await limited(SMALL);
    const base = dirname(dirname(dirsOf(handle)[0]!));
    // above the largest pid_max Linux allows (2^22): no process has it
    const stale = join(base, 'gaffer-runs-4194305', 'run-left');
    mkdirSync(stale, { recursive: true });
    removeStaleParents(base);
    expect(existsSync(dirname(stale))).toBe(false);
    expect(existsSync(dirsOf(handle)[0]!)).toBe(true);
  });

  it('sets the CPU cap', async () => {
    const handle = await limited({ ...SMALL, cpuCores: 1.5 });
    const dirs = dirsOf(handle);
    if (handle.mechanism === 'cgroup1') {
      const cpu = dirs.find((dir) => existsSync(join(dir, 'cpu.cfs_quota_us')));
      expect(readFileSync(join(cpu!, 'cpu.cfs_quota_us'), 'utf8').trim()).toBe('150000');
      expect(readFileSync(join(cpu!, 'cpu.cfs_period_us'), 'utf8').trim()).toBe('100000');
      const pids = dirs.find((dir) => existsSync(join(dir, 'pids.max')));
      expect(readFileSync(join(pids!, 'pids.max'), 'utf8').trim()).toBe('20');
    } else {
      expect(readFileSync(join(dirs[0]!, 'cpu.max'), 'utf8').trim()).toBe('150000 100000');
    }
  });
});

describe('run limits, anywhere', () => {
  it('says which mechanism holds the runs, and why when it is only rlimits', () => {
    expect(state.ready).toBe(cgroups);
    if (cgroups) expect(state.reason).toBeNull();
    else expect(state.reason).toMatch(/no cgroup can be made/);
    expect(state.enforced).toContain('wall_time');
  });

  it('never runs the program when it cannot enter its cgroup', async () => {
    const argv = enterCgroupArgv(['/nonexistent/cgroup.procs'], ['/bin/echo', 'ran']);
    const run = await start(argv);
    let stdout = '';
    run.child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
    });
    expect((await run.exited).code).toBe(125);
    await run.closed;
    expect(stdout).toBe('');
    expect(run.stderr()).toContain("could not enter the run's cgroup (/nonexistent/cgroup.procs)");
  });

  it('passes paths and argv to the launcher as arguments, never in its script', () => {
    const argv = enterCgroupArgv(['/cg/a b/cgroup.procs', '/cg/$(x)/cgroup.procs'], ['prog', '--', '$HOME']);
    expect(argv.slice(3)).toEqual([
      'gaffer-run-limits',
      '/cg/a b/cgroup.procs',
      '/cg/$(x)/cgroup.procs',
      '--',
      'prog',
      '--',
      '$HOME',
    ]);
  });

  it('falls back to prlimit with per-process rlimits', () => {
    const limits = { maxProcesses: 100, memoryMb: 512, cpuCores: 2, wallSeconds: 60 };
    expect(rlimitArgv(limits, ['claude', '-p', 'x'], '/usr/bin/prlimit')).toEqual([
      '/usr/bin/prlimit',
      '--nproc=100',
      `--data=${512 * 1024 * 1024}`,
      '--cpu=120',
      '--',
      'claude',
      '-p',
      'x',
    ]);
  });

  it.skipIf(!existsSync('/usr/bin/prlimit'))('whose rlimits the program gets', () => {
    const limits = { maxProcesses: 100, memoryMb: 512, cpuCores: 2, wallSeconds: 60 };
    const argv = rlimitArgv(limits, ['/bin/sh', '-c', 'ulimit -d; ulimit -t'], '/usr/bin/prlimit');
    const result = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
    expect(result.stdout.trim().split('\n')).toEqual([String(512 * 1024), '120']);
  });

  it('refuses limits that are not positive', async () => {
    await expect(createRunCgroup('bad', { ...SMALL, maxProcesses: 0 })).rejects.toThrow(RunLimitsError);
    await expect(createRunCgroup('bad', { ...SMALL, memoryMb: Number.NaN })).rejects.toThrow(RunLimitsError);
  });

  it('keeps a core for the server by default', () => {
    expect(defaultCpuCores(1)).toBe(1);
    expect(defaultCpuCores(2)).toBe(1);
    expect(defaultCpuCores(16)).toBe(15);
    expect(defaultRunLimits()).toMatchObject({ maxProcesses: 512, memoryMb: 4096, wallSeconds: 3600 });
  });
});

describe('cgroup paths and parsing', () => {
  it('reads the cgroup mounts and this process cgroups', () => {
    const mounts = parseMountInfo(
      [
        '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
        '32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct',
        '41 31 0:38 /docker/abc /sys/fs/cgroup\\040x rw,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate',
        '22 1 8:1 / / rw - ext4 /dev/sda1 rw',
      ].join('\n'),
    );
    expect(mounts.map((m) => [m.version, m.root, m.mountPoint])).toEqual([
      [1, '/', '/sys/fs/cgroup/memory'],
      [1, '/', '/sys/fs/cgroup/cpu,cpuacct'],
      [2, '/docker/abc', '/sys/fs/cgroup x'],
    ]);
    expect(mounts[1]!.options).toContain('cpu');
    const own = parseProcCgroup('4:memory:/process_api/x\n1:cpu,cpuacct:/\n0::/system.slice/g.service\n');
    expect(own.unified).toBe('/system.slice/g.service');
    expect(own.byController.get('memory')).toBe('/process_api/x');
    expect(own.byController.get('cpuacct')).toBe('/');
    expect(cgroupDir(mounts[0]!, '/process_api/x')).toBe('/sys/fs/cgroup/memory/process_api/x');
    expect(cgroupDir(mounts[2]!, '/docker/abc/run')).toBe('/sys/fs/cgroup x/run');
    expect(cgroupDir(mounts[2]!, '/docker/abcd')).toBeNull();
    expect(cgroupDir(mounts[0]!, '/../..')).toBeNull();
  });
});

/**
 * cgroup v2 with delegation cannot run on a v1 host: its logic runs against a directory tree laid
 * out as the kernel lays out cgroupfs (files a real mkdir would create are written by hand).
 */
describe('cgroup v2 logic on a fake tree', () => {
  const root = mkdtempSync(join(tmpdir(), 'gaffer-cgroup2-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function tree(controllersAtRoot: string, controllersOfOwn: string) {
    const mount = join(root, `mnt-${++serial}`);
    const own = join(mount, 'system.slice', 'gaffer.service');
    mkdirSync(own, { recursive: true });
    writeFileSync(join(mount, 'cgroup.controllers'), controllersAtRoot);
    writeFileSync(join(own, 'cgroup.controllers'), controllersOfOwn);
    writeFileSync(join(own, 'cgroup.subtree_control'), '');
    writeFileSync(join(own, 'cgroup.procs'), '');
    const mounts = parseMountInfo(`41 31 0:38 / ${mount} rw - cgroup2 cgroup2 rw`);
    return { mount, own, mounts, cgroups: parseProcCgroup('0::/system.slice/gaffer.service\n') };
  }

  it('names the cgroup and Delegate=yes when the server is not delegated', () => {
    const notDelegated = tree('cpu memory pids', '');
    const located = locateV2(notDelegated.mounts, notDelegated.cgroups);
    expect(located.ok).toBe(false);
    if (!located.ok) {
      expect(located.reason).toContain(notDelegated.own);
      expect(located.reason).toContain('Delegate=yes');
    }
    const hybrid = tree('', '');
    const bound = locateV2(hybrid.mounts, hybrid.cgroups);
    expect(!bound.ok && bound.reason).toMatch(/bound to cgroup v1/);
  });

  it('hands the controllers down and writes the run limits', () => {
    const { own, mounts, cgroups } = tree('cpu memory pids', 'cpu memory pids');
    const located = locateV2(mounts, cgroups);
    expect(located).toEqual({ ok: true, dirs: { dir: own, cpu: true } });
    if (!located.ok) return;
    const dead = join(own, 'gaffer-runs-4194305');
    mkdirSync(join(dead, 'run-old'), { recursive: true });
    const parent = prepareV2Parent(located.dirs, 4242);
    expect(existsSync(dead)).toBe(false);
    expect(parent.dir).toBe(join(own, 'gaffer-runs-4242'));
    expect(readFileSync(join(own, 'cgroup.subtree_control'), 'utf8')).toBe('+pids +memory +cpu');
    expect(readFileSync(join(parent.dir, 'cgroup.subtree_control'), 'utf8')).toBe('+pids +memory +cpu');
    const backend = createV2Run(parent, 'run-a', {
      maxProcesses: 20,
      memoryMb: 64,
      cpuCores: 1.5,
      wallSeconds: 5,
    });
    const run = join(parent.dir, 'run-a');
    const read = (file: string) => readFileSync(join(run, file), 'utf8');
    expect([read('pids.max'), read('memory.max'), read('memory.oom.group'), read('cpu.max')]).toEqual([
      '20',
      String(64 * 1024 * 1024),
      '1',
      '150000 100000',
    ]);
    expect(backend.procsFiles).toEqual([join(run, 'cgroup.procs')]);
    expect(backend.hit()).toBeNull();
    writeFileSync(join(run, 'pids.events'), 'max 0\n');
    writeFileSync(join(run, 'memory.events'), 'low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\noom_group_kill 1\n');
    expect(backend.hit()).toBe('memory');
    writeFileSync(join(run, 'pids.events'), 'max 3\n');
    expect(backend.hit()).toBe('processes');
  });

  it('leaves alone the parents of live servers and runs that hold processes', () => {
    const base = join(root, `sweep-${++serial}`);
    const mine = join(base, `gaffer-runs-${process.pid}`);
    const busy = join(base, 'gaffer-runs-4194306', 'run-busy');
    mkdirSync(mine, { recursive: true });
    mkdirSync(busy, { recursive: true });
    writeFileSync(join(busy, 'cgroup.procs'), '12345\n');
    removeStaleParents(base);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(busy)).toBe(true);
  });

  it('does not ask again for controllers already handed down', () => {
    const dir = join(root, `enabled-${++serial}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'cgroup.subtree_control'), 'cpu memory pids\n');
    enableControllers(dir, true, false);
    expect(readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8')).toBe('cpu memory pids\n');
  });

  it('kills through cgroup.kill when an OOM kill is counted', async () => {
    const { mounts, cgroups } = tree('memory pids', 'memory pids');
    const located = locateV2(mounts, cgroups);
    if (!located.ok) throw new Error(located.reason);
    const parent = prepareV2Parent(located.dirs, 4243);
    const limits = { maxProcesses: 20, memoryMb: 64, cpuCores: 1, wallSeconds: 30 };
    const backend = createV2Run(parent, 'run-b', limits);
    const run = join(parent.dir, 'run-b');
    expect(existsSync(join(run, 'cpu.max'))).toBe(false); // no cpu controller offered
    writeFileSync(join(run, 'cgroup.kill'), '');
    const handle = new CgroupRun(backend, limits);
    const seen = breachOf(handle);
    writeFileSync(join(run, 'memory.events'), 'oom_kill 1\n');
    expect((await seen).breach.limit).toBe('memory');
    await until(() => readFileSync(join(run, 'cgroup.kill'), 'utf8') === '1');
    expect(readFileSync(join(run, 'cgroup.kill'), 'utf8')).toBe('1');
    await expect(handle.release()).resolves.toBeUndefined();
  });
});
