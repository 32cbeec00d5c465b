/**
 * One CI-watch sweep over 1,000 opted-in projects, each its own repository on the fake forge
 * (GitHub wire format, read through the real Octokit client) answering every call after 100 ms.
 * The sweep reads them through a bounded pool (GAFFER_CI_WATCH_CONCURRENCY, default 16), so the
 * ideal sweep time is 1,000 × 100 ms / pool size; the sweep's own overhead (project load, task
 * dedup, cycle record) comes on top. One project in a hundred is red, so the sweep also opens its
 * fix tasks (within a per-cycle cap high enough to open them all). Runs on embedded PGlite.
 * BENCH_CI_PROJECTS, BENCH_CI_LATENCY_MS and BENCH_CI_POOL adjust a run.
 * Target: sweep time ≤ 1.5 × the ideal.
 */
import { performance } from 'node:perf_hooks';
import { startAppWithFlags } from '../test/support/engines.js';
import { startFakeForge } from '../test/support/fake-forge/index.js';
import { ratio as benchRatio, report } from './support.js';

const PROJECTS = Number(process.env.BENCH_CI_PROJECTS ?? 1_000);
const LATENCY_MS = Number(process.env.BENCH_CI_LATENCY_MS ?? 100);
const POOL = Number(process.env.BENCH_CI_POOL ?? 16);
const TARGET_RATIO = 1.5;

const forge = await startFakeForge();
const t = await startAppWithFlags(['ci_watch'], {
  config: { ciWatchConcurrency: POOL, ciWatchMaxPerCycle: PROJECTS, ciWatchMaxOpenTasks: 3 },
});
try {
  const ceo = { id: 'ceo', role: 'ceo' as const, team: '' };
  for (let index = 0; index < PROJECTS; index += 1) {
    const repo = `repo-${index}`;
    await t.modules.projects.service.create(ceo, {
      slug: `bench-${index}`,
      name: `Bench ${index}`,
      git_url: `https://github.com/acme/${repo}.git`,
      forge_api_url: forge.githubApiUrl,
      git_token: forge.token,
      ci_watch_enabled: true,
    });
    forge.addRun({
      owner: 'acme',
      repo,
      workflow: 'ci.yml',
      branch: 'main',
      headSha: index.toString(16).padStart(40, '0'),
      conclusion: index % 100 === 0 ? 'failure' : 'success',
    });
  }
  forge.latencyMs = LATENCY_MS;
  forge.resetRequests();

  const started = performance.now();
  const cycle = await t.modules.boardPrograms.runner.runNow('ci_watch');
  const sweepMs = performance.now() - started;
  const idealMs = (PROJECTS * LATENCY_MS) / POOL;
  const ratio = sweepMs / idealMs;
  report(
    'ci-watch',
    {
      projects: PROJECTS,
      latency_ms: LATENCY_MS,
      pool: POOL,
      forge_requests: forge.requests.length,
      sweep_ms: Math.round(sweepMs),
      ideal_ms: Math.round(idealMs),
      ratio: Number(ratio.toFixed(2)),
      outcome: cycle.outcome,
      tasks_opened: cycle.tasksOpened,
      errors: cycle.errors,
    },
    {
      description: `sweep ≤ ${TARGET_RATIO} × ideal, no errors`,
      met: cycle.errors === 0,
      ratios: [
        benchRatio('sweep time / ideal', ratio, 'projects × forge latency / pool size', '<=', TARGET_RATIO),
      ],
    },
  );
} finally {
  await t.close();
  await forge.close();
}
