/**
 * The release manager's readiness pass on a large history: a repository generated with
 * `git fast-import` (20,000 commits of conventional messages, the last release — a
 * `chore(release):` commit tagged v1.4.0 — 5,000 commits back), then the pass's snapshot and
 * assessment (last tag, the one `git log` of the 5,000 commits, classification, bump, CHANGELOG
 * draft, version references, docs drift, migration heads) timed next to a bare
 * `git log --no-merges v1.4.0..HEAD` of the same range. Median of several runs each.
 * BENCH_READINESS_COMMITS, BENCH_READINESS_SINCE_TAG and BENCH_READINESS_RUNS adjust a run;
 * BENCH_READINESS_KEEP=1 leaves the generated repository in place (its path is printed).
 * Target: readiness ≤ 2 × the bare git log.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { assessReadiness } from '../src/modules/engines/release/report.js';
import { gatherSnapshot } from '../src/modules/engines/release/snapshot.js';
import { GitRunner, openRepo } from '../src/platform/git/index.js';
import { ratio as benchRatio, report } from './support.js';

const COMMITS = Number(process.env.BENCH_READINESS_COMMITS ?? 20_000);
const SINCE_TAG = Number(process.env.BENCH_READINESS_SINCE_TAG ?? 5_000);
const RUNS = Number(process.env.BENCH_READINESS_RUNS ?? 7);
const TARGET_RATIO = 2;

const MESSAGES = [
  'feat(kanban): drag cards between columns',
  'fix(gateway): refuse a short task id with a remediation hint',
  'chore(deps): bump vitest from 2.1.0 to 2.1.1',
  'docs: the routes table',
  'refactor(tasks): one claim statement',
  'perf(db): batch notification inserts',
  'test: cover the pause expiry',
  'fix!: drop the v1 token format\n\nBREAKING CHANGE: tokens minted before 1.0 no longer verify',
  'security: pin guard-core 3.12.0 or later',
  'Update README.md',
];

/** Runs a command with `input` on stdin; rejects on a non-zero exit. */
function run(command: string, args: string[], cwd: string, input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out))
        : reject(new Error(`${command} ${args.join(' ')}: exit ${code}: ${Buffer.concat(err).toString()}`)),
    );
    child.stdin.end(input ?? '');
  });
}

/** A fast-import `data` block (the stream's newline after it comes from the join). */
function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}`;
}

/** The fast-import stream: COMMITS commits on main, the release commit (tagged) SINCE_TAG from the end. */
function importStream(): string {
  const parts: string[] = [];
  const releaseAt = COMMITS - SINCE_TAG;
  const at = 1_700_000_000;
  for (let index = 1; index <= COMMITS; index += 1) {
    const release = index === releaseAt;
    const message = release ? 'chore(release): 1.4.0' : `${MESSAGES[index % MESSAGES.length]} (#${index})`;
    parts.push(
      'commit refs/heads/main',
      `mark :${index}`,
      `committer Bench <bench@example.test> ${at + index} +0000`,
      data(message),
    );
    if (index === 1) {
      parts.push(`M 100644 inline README.md\n${data('# Bench\n\nInstall bench 1.3.0 from the registry.\n')}`);
      parts.push(`M 100644 inline docs/install.md\n${data('pin 1.4.0\n')}`);
      parts.push(
        `M 100644 inline db/migrations/meta/0000_snapshot.json\n${data(JSON.stringify({ id: 'a', prevId: '00000000-0000-0000-0000-000000000000' }))}`,
      );
    }
    if (release) {
      parts.push(`M 100644 inline package.json\n${data('{\n  "name": "bench",\n  "version": "1.4.0"\n}\n')}`);
      parts.push(`M 100644 inline src/version.ts\n${data("export const VERSION = '1.4.0';\n")}`);
      parts.push(
        `M 100644 inline CHANGELOG.md\n${data('# Changelog\n\n## [Unreleased]\n\n## [1.4.0] - 2025-01-01\n\n- Things.\n')}`,
      );
    } else {
      parts.push(`M 100644 inline src/file-${index % 200}.ts\n${data(`export const n = ${index};\n`)}`);
    }
    if (index === 10) parts.push('reset refs/tags/v1.3.0', `from :${index}`, '');
    if (release) parts.push('reset refs/tags/v1.4.0', `from :${index}`, '');
  }
  return `${parts.join('\n')}\n`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const dir = mkdtempSync(join(tmpdir(), 'gaffer-bench-readiness-'));
try {
  const work = join(dir, 'repo');
  await run('git', ['init', '--quiet', '--initial-branch=main', work], dir);
  const generated = performance.now();
  await run('git', ['fast-import', '--quiet'], work, importStream());
  await run('git', ['checkout', '--quiet', '--force', 'main'], work);
  const generateMs = performance.now() - generated;

  const runner = new GitRunner({ home: join(dir, 'home') });
  const repo = openRepo(runner, work);
  const green = {
    state: 'green' as const,
    conclusion: 'success' as const,
    sha: null,
    runUrl: null,
    detail: '',
  };
  const options = { minCommits: 8, allowMajorFromZero: false, today: '2026-01-01' };

  const bare: number[] = [];
  const sweep: number[] = [];
  let commitsSeen = 0;
  let version = '';
  // One warm-up of each, then alternate so both see the same cache state.
  await run('git', ['log', '--no-merges', 'v1.4.0..HEAD'], work);
  await gatherSnapshot(repo, { headBranch: 'main', prodBranch: 'main', prodRef: null });
  for (let index = 0; index < RUNS; index += 1) {
    let started = performance.now();
    await run('git', ['log', '--no-merges', 'v1.4.0..HEAD'], work);
    bare.push(performance.now() - started);

    started = performance.now();
    const snapshot = await gatherSnapshot(repo, { headBranch: 'main', prodBranch: 'main', prodRef: null });
    const readiness = assessReadiness(snapshot, green, options);
    sweep.push(performance.now() - started);
    commitsSeen = snapshot.commits.length;
    version = readiness.report?.version ?? '';
  }
  const bareMs = median(bare);
  const readinessMs = median(sweep);
  const ratio = readinessMs / bareMs;
  report(
    'readiness',
    {
      commits: COMMITS,
      since_tag: SINCE_TAG,
      commits_assessed: commitsSeen,
      proposed_version: version,
      runs: RUNS,
      generate_ms: Number(generateMs.toFixed(0)),
      bare_git_log_ms: Number(bareMs.toFixed(2)),
      readiness_ms: Number(readinessMs.toFixed(2)),
      ratio: Number(ratio.toFixed(2)),
    },
    {
      description: `readiness ≤ ${TARGET_RATIO} × bare git log`,
      met: true,
      ratios: [
        benchRatio(
          'readiness pass / bare git log',
          ratio,
          'git log of the same range, same run',
          '<=',
          TARGET_RATIO,
        ),
      ],
    },
  );
  console.error(
    `readiness pass ${readinessMs.toFixed(1)} ms vs bare git log ${bareMs.toFixed(1)} ms over ${commitsSeen} commits: ` +
      `${ratio.toFixed(2)}× — target ≤ ${TARGET_RATIO}× ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
  );
} finally {
  if (process.env.BENCH_READINESS_KEEP === '1')
    console.error(`kept the generated repository: ${join(dir, 'repo')}`);
  else rmSync(dir, { recursive: true, force: true });
}
