/**
 * How long `gaffer start` takes to answer `/ready` on the embedded store: on a fresh data
 * directory (first start: the build's prepared PGlite directory copied, newer migrations applied)
 * and on a restart of the same one — each beside the floor timed in the same run the same way
 * (bench/startup-floor.mjs: copy the same prepared directory, open it with PGlite alone, listen on
 * a port). Spawn to the first 200 from `/ready`, polled every 10 ms; median of BENCH_STARTUP_RUNS
 * (default 5), the four kinds taken in turn so each sees the same machine.
 * Targets: ≤ 4 × the floor for both (Gaffer also loads its ~700 modules, registers 29 route groups
 * and starts its loops; 4 × the floor is about the 3 s first start and 2 s restart asked of it on
 * this 2-core machine).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteTemplatePath } from '../src/platform/db/pglite-template.js';
import { freePort, median, ratio, report } from './support.js';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const TARGET = 4;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Spawns `args` (listening on GAFFER_PORT), answers the milliseconds until `/ready` answers 200, then stops the process. */
async function timeToReady(args: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, GAFFER_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}

execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const template = pgliteTemplatePath();
const timings = {
  fresh: [] as number[],
  restart: [] as number[],
  floorFresh: [] as number[],
  floorRestart: [] as number[],
};
for (let run = 0; run < RUNS; run++) {
  const gaffer = mkdtempSync(join(tmpdir(), 'gaffer-bench-start-'));
  const floor = mkdtempSync(join(tmpdir(), 'gaffer-bench-floor-'));
  const start = ['dist/main.js', 'start'];
  const env = { GAFFER_DATA_DIR: gaffer, GAFFER_LOG_LEVEL: 'warn' };
  const opening = ['bench/startup-floor.mjs', template, floor];
  try {
    timings.fresh.push(await timeToReady(start, env));
    timings.floorFresh.push(await timeToReady(opening, env));
    timings.restart.push(await timeToReady(start, env));
    timings.floorRestart.push(await timeToReady(opening, env));
  } finally {
    rmSync(gaffer, { recursive: true, force: true });
    rmSync(floor, { recursive: true, force: true });
  }
}

const ms = (values: number[]) => Math.round(median(values));
const figures = {
  fresh_ms: ms(timings.fresh),
  restart_ms: ms(timings.restart),
  floor_fresh_ms: ms(timings.floorFresh),
  floor_restart_ms: ms(timings.floorRestart),
};
const ratios = [
  ratio(
    'first start to /ready',
    figures.fresh_ms / figures.floor_fresh_ms,
    'copy + open the prepared PGlite directory, listen',
    '<=',
    TARGET,
  ),
  ratio(
    'restart to /ready',
    figures.restart_ms / figures.floor_restart_ms,
    'open the same PGlite directory, listen',
    '<=',
    TARGET,
  ),
];
console.log(
  `first start ${figures.fresh_ms} ms (floor ${figures.floor_fresh_ms} ms), restart ${figures.restart_ms} ms (floor ${figures.floor_restart_ms} ms); median of ${RUNS}`,
);
report(
  'startup',
  { ...figures, runs: RUNS },
  {
    description: `first start and restart to /ready ≤ ${TARGET}× the floor (PGlite alone on the same prepared directory, listening)`,
    met: true,
    ratios,
  },
);
