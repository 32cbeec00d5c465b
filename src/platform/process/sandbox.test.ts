/**
 * The sandbox profile: what its argv binds (read-write, read-only, absent), what it refuses to
 * bind, and — through the real `bwrap` — what a program inside can and cannot reach: its own
 * processes only, no file of the host outside the profile (a stand-in data directory beside the
 * workspace, with an auth secret), no writes outside the workspace and home, no network but its
 * own loopback (run-network.test.ts has the doors Gaffer opens into it).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox, SandboxProfileError, sandboxArgv } from './sandbox.js';

const pairs = (argv: string[], flag: string) =>
  argv.flatMap((arg, i) => (arg === flag ? [`${argv[i + 1]} → ${argv[i + 2]}`] : []));

describe('the sandbox argv', () => {
  const argv = sandboxArgv(
    {
      workspace: '/data/workspaces/p/t',
      home: '/data/homes/dev-1',
      writable: ['/run/gaffer-run-1'],
      readable: ['/data/mirrors/p.git', '/srv/gaffer/dist'],
      forbidden: ['/data'],
    },
    ['claude', '-p', 'hello'],
  );

  it('makes new PID, IPC, UTS and network namespaces, drops capabilities and dies with the server', () => {
    for (const flag of [
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-net',
      '--die-with-parent',
    ])
      expect(argv).toContain(flag);
    expect(argv.join(' ')).toContain('--cap-drop ALL');
    expect(argv.join(' ')).toContain('--remount-ro /');
    expect(argv).not.toContain('--share-net');
  });

  it('binds the workspace, home and run directory read-write, git metadata and installs read-only', () => {
    expect(pairs(argv, '--bind')).toEqual([
      '/data/homes/dev-1 → /data/homes/dev-1',
      '/run/gaffer-run-1 → /run/gaffer-run-1',
      '/data/workspaces/p/t → /data/workspaces/p/t',
    ]);
    expect(pairs(argv, '--ro-bind')).toEqual(
      expect.arrayContaining(['/usr → /usr', '/data/mirrors/p.git → /data/mirrors/p.git']),
    );
    expect(argv.join(' ')).toContain('--chdir /data/workspaces/p/t');
    expect(argv.join(' ')).toContain('--setenv HOME /data/homes/dev-1');
    expect(argv.join(' ')).toContain('--tmpfs /tmp');
    expect(argv.slice(-4)).toEqual(['--', 'claude', '-p', 'hello']);
  });

  it('binds nothing of the host beyond the profile: no /home, /root, /var, /srv, whole /etc or /', () => {
    const bound = [
      ...pairs(argv, '--bind'),
      ...pairs(argv, '--ro-bind'),
      ...pairs(argv, '--ro-bind-try'),
    ].map((pair) => pair.split(' → ')[0]!);
    for (const path of bound) {
      expect(path).not.toBe('/');
      expect(path).not.toBe('/etc');
      expect(path).not.toMatch(/^\/(home|root|var)(\/|$)/);
      if (path.startsWith('/srv')) expect(path).toBe('/srv/gaffer/dist');
    }
    expect(bound).not.toContain('/etc/shadow');
  });

  it('refuses a bind that would expose a forbidden directory, a relative path, the root or no program', () => {
    const refuse = (paths: Parameters<typeof sandboxArgv>[0], program = ['sh']) =>
      expect(() => sandboxArgv(paths, program)).toThrow(SandboxProfileError);
    refuse({ workspace: '/data', home: '/h', forbidden: ['/data'] });
    refuse({ workspace: '/w', home: '/h', readable: ['/'], forbidden: ['/data'] });
    refuse({ workspace: '/w', home: '/h', readable: ['/srv'], forbidden: ['/srv/gaffer/data'] });
    refuse({ workspace: '/w', home: '/h', writable: ['/data/../data'], forbidden: ['/data'] });
    refuse({ workspace: 'relative/work', home: '/h' });
    refuse({ workspace: '/w', home: '/h', forbidden: ['/usr/local/gaffer-data'] });
    refuse({ workspace: '/w', home: '/h' }, []);
    expect(() => sandboxArgv({ workspace: '/w', home: '/h', forbidden: ['/data'] }, ['sh'])).not.toThrow();
  });
});

const available = await probeSandbox();
if (!available.ok) console.warn(`SKIPPED: the sandbox suite needs bubblewrap: ${available.reason}`);

describe.skipIf(!available.ok)('a program in the sandbox', () => {
  let root: string;
  let dataDir: string;
  let workspace: string;
  let home: string;
  let mirror: string;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'gaffer-sandbox-'));
    dataDir = join(root, 'data');
    workspace = join(dataDir, 'workspaces', 'shop', 'task-1');
    const other = join(dataDir, 'workspaces', 'shop', 'task-2');
    mirror = join(dataDir, 'mirrors', 'shop.git');
    home = join(dataDir, 'homes', 'dev-1');
    for (const dir of [workspace, other, mirror, home]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dataDir, 'auth-secret'), 'the-server-secret\n');
    writeFileSync(join(other, 'notes.md'), 'another agent\n');
    writeFileSync(join(mirror, 'HEAD'), 'ref: refs/heads/main\n');
    server = createServer((socket) => socket.end('gateway\n'));
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((closed) => server?.close(closed));
    rmSync(root, { recursive: true, force: true });
  });

  /** Runs a shell script in the profile; its output and exit code. */
  const inside = (script: string) => {
    const argv = sandboxArgv({ workspace, home, readable: [mirror], forbidden: [dataDir] }, [
      'sh',
      '-c',
      script,
    ]);
    return new Promise<{ code: number; out: string }>((done) => {
      execFile(argv[0]!, argv.slice(1), { env: { PATH: '/usr/bin:/bin' } }, (error, stdout, stderr) =>
        done({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          out: `${stdout}${stderr}`,
        }),
      );
    });
  };

  it("sees only its own processes: neither finds nor signals a server's process", async () => {
    // A host process holding a secret in its environment, as the server does.
    const host = spawn('sleep', ['30'], {
      env: { GAFFER_AUTH_SECRET: 'host-secret-value' },
      stdio: 'ignore',
    });
    try {
      const { out } = await inside(
        `ls /proc | grep -c "^[0-9]"; grep -l host-secret-value /proc/[0-9]*/environ; kill -9 ${host.pid}; echo kill=$?`,
      );
      const [processes] = out.trim().split('\n');
      expect(Number(processes)).toBeLessThanOrEqual(4); // bwrap's init, sh, ls, grep
      expect(out).not.toMatch(/\/proc\/\d+\/environ\n/);
      expect(out).toMatch(/kill=[1-9]/);
      expect(host.exitCode).toBeNull();
      expect(host.signalCode).toBeNull();
    } finally {
      host.kill('SIGKILL');
    }
  });

  it('cannot read the data directory, another worktree or the host home; can read its mirror', async () => {
    const { out } = await inside(
      `cat ${join(dataDir, 'auth-secret')}; ls ${join(dataDir, 'workspaces', 'shop', 'task-2')}; ls /root; cat ${join(mirror, 'HEAD')}`,
    );
    expect(out).not.toContain('the-server-secret');
    expect(out).not.toContain('notes.md');
    expect(out).toContain('No such file or directory');
    expect(out).toContain('ref: refs/heads/main');
  });

  it('writes its workspace and home, and nothing else', async () => {
    const { out } = await inside(
      `echo made > made.txt && echo home > "$HOME/.config-probe" && echo ok-writes; echo x > ${join(mirror, 'HEAD')}; echo x > /usr/probe; echo x > /etc/probe; echo private > /tmp/probe`,
    );
    expect(out).toContain('ok-writes');
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(join(home, '.config-probe'), 'utf8')).toBe('home\n');
    expect(readFileSync(join(mirror, 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(out.match(/Read-only file system|No such file or directory|Permission denied/g)?.length).toBe(3);
    expect(() => readFileSync('/tmp/probe')).toThrow(); // its /tmp is its own
  });

  it("reaches nothing of the host's network: not its loopback services, not another host", async () => {
    const { out } = await inside(
      `node -e "for (const [port, host] of [[${port}, '127.0.0.1'], [${port}, '::1'], [80, '192.0.2.1']]) require('net').connect(port, host).on('connect', () => console.log('REACHED', host)).on('error', (e) => console.log(host, e.code))"`,
    );
    expect(out).not.toContain('REACHED');
    expect(out).toContain('127.0.0.1 ECONNREFUSED');
    expect(out).toMatch(/192\.0\.2\.1 (ENETUNREACH|EHOSTUNREACH)/);
  });
});
