/**
 * The process's resident memory on each store: Gaffer's whole stack (`startServer`, as `gaffer
 * start` runs it) on the embedded PGlite default and on PostgreSQL, each in its own process, idle
 * (settled after start) and under load (20 clients reading `GET /api/kanban` over 1,000 tasks for
 * BENCH_SECONDS), plus what the embedded store alone holds (a bare Node process opening PGlite on
 * a data directory) and a stock PostgreSQL server's own idle memory (a fresh cluster started with
 * initdb defaults on a free port, its processes' PSS summed, so shared memory counts once).
 * Target: the embedded default's idle RSS ≤ 2 × (the PostgreSQL mode's process + the stock
 * PostgreSQL server).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { configWith } from '../src/config.js';
import { tasks } from '../src/modules/tasks/schema.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { startServer } from '../src/server.js';
import { freePort, onScratchDatabase, openTaskRows, ratio, report, rssMb, startTarget } from './support.js';

const SECRET = 'bench-secret-memory-0123456789abcdef0123456789';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const SETTLE_MS = 4000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.argv[2] === 'serve') await serve(process.argv[3] || undefined);
else if (process.argv[2] === 'pglite') await pgliteAlone();
else await drive();

async function serve(databaseUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-memory-'));
  const server = await startServer(
    configWith({
      dataDir,
      databaseUrl,
      port: 0,
      logLevel: 'error',
      authSecret: SECRET,
      dispatchEnabled: false,
    }),
  );
  await server.platform.database.db.insert(tasks).values(openTaskRows(1000, 'memory'));
  process.on('SIGTERM', () => {
    void server.close().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  console.log(JSON.stringify({ port: server.port }));
}

/** PGlite alone on a data directory, as the embedded store opens it: prints its RSS, then waits. */
async function pgliteAlone(): Promise<void> {
  const before = process.memoryUsage().rss;
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = mkdtempSync(join(tmpdir(), 'gaffer-bench-pglite-'));
  const db = await PGlite.create(join(dir, 'pglite'));
  await db.query('select 1');
  await sleep(SETTLE_MS);
  console.log(JSON.stringify({ port: 0, node_mb: Math.round(before / 1048576), rss_mb: rssMb(process.pid) }));
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}

async function measure(databaseUrl: string | undefined) {
  const target = await startTarget('./memory.ts', ['serve', databaseUrl ?? '']);
  try {
    await sleep(SETTLE_MS);
    const idle = rssMb(target.pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(target.pid));
    }, 250);
    const result = await autocannon({
      url: `http://127.0.0.1:${target.port}/api/kanban`,
      headers: { 'x-agent-token': staticToken(SECRET, CEO_IDENTITY) },
      duration: SECONDS,
      connections: 20,
    });
    clearInterval(sampler);
    return {
      idle_rss_mb: idle,
      load_peak_rss_mb: peak,
      load_requests_per_second: Math.round(result.requests.average),
      errors: result.errors + result.non2xx,
    };
  } finally {
    await target.stop();
  }
}

function userIds(name: string): { uid: number; gid: number } | undefined {
  const uid = Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout);
  const gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout);
  return Number.isInteger(uid) && uid > 0 ? { uid, gid } : undefined;
}

/** Proportional set size of a process and its children named `postgres`, in MB. */
function postgresPssMb(postmaster: number): number {
  let kb = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number(entry) !== postmaster && parent !== postmaster) continue;
      const rollup = readFileSync(`/proc/${entry}/smaps_rollup`, 'utf8');
      kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {}
  }
  return Math.round((kb / 1024) * 10) / 10;
}

/** A fresh stock cluster (initdb defaults) on a free port, idle: its memory, then stopped. */
async function stockPostgres(): Promise<{ pss_mb: number; processes: string } | { skipped: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'gaffer-bench-pg-'));
  // Run as the `postgres` user when this runs as root (initdb refuses root).
  const as = process.getuid?.() === 0 ? userIds('postgres') : undefined;
  try {
    if (as) spawnSync('chown', ['postgres', dir]);
    const data = join(dir, 'data');
    const init = spawnSync('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres'], {
      encoding: 'utf8',
      ...as,
    });
    if (init.status !== 0) return { skipped: `initdb failed: ${String(init.stderr).slice(0, 200)}` };
    const port = await freePort();
    const server = spawn('postgres', ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses='], {
      stdio: 'ignore',
      ...as,
    });
    await sleep(SETTLE_MS);
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const pss = postgresPssMb(postmaster);
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT'); // fast shutdown
    await Promise.race([exited, sleep(10_000)]);
    if (server.exitCode === null) server.kill('SIGKILL');
    return { pss_mb: pss, processes: 'postmaster and its background workers, idle, no client' };
  } catch (error) {
    return { skipped: (error as Error).message };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function drive(): Promise<void> {
  const pgliteTarget = await startTarget('./memory.ts', ['pglite']);
  const pgliteOnly = pgliteTarget.info as { node_mb: number; rss_mb: number };
  await pgliteTarget.stop();
  const embedded = await measure(undefined);
  const postgres = await onScratchDatabase((url) => measure(url));
  const stock = await stockPostgres();
  const bound = 'pss_mb' in stock ? postgres.idle_rss_mb + stock.pss_mb : Number.NaN;
  report(
    'memory',
    {
      embedded_pglite: embedded,
      postgres_mode: postgres,
      stock_postgres_server_idle: stock,
      pglite_alone: { node_before_mb: pgliteOnly.node_mb, rss_mb: pgliteOnly.rss_mb },
      bound_mb: Math.round(bound),
    },
    {
      description:
        'embedded idle RSS <= 2 x (PostgreSQL-mode process + stock PostgreSQL server idle), no errors under load',
      met: embedded.errors === 0 && postgres.errors === 0,
      ratios: [
        ratio(
          'idle RSS: embedded PGlite / (PostgreSQL mode + stock server)',
          embedded.idle_rss_mb / bound,
          'Gaffer on PostgreSQL plus a stock PostgreSQL server, same run',
          '<=',
          2,
        ),
      ],
    },
  );
}
