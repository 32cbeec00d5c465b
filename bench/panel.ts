/**
 * The panel's kanban in headless chromium (Debian's, as the browser tests use) against a real
 * Gaffer on PGlite, once with 100 tasks and once with 10,000 (rows inserted directly, spread over
 * every state): the time from navigation start to the kanban being interactive (its columns and
 * cards rendered and the main thread free again), median of cold loads alternating between the
 * two boards, and the JavaScript a first load of /tasks?view=kanban transfers, gzipped.
 * Targets: 10,000-task board ≤ 3 × the 100-task board (in one run); first-load JS ≤ 250 KB gzipped.
 *
 * And the review page (`/tasks/{id}/changes`) of two tasks on one local project, one changing 100
 * lines and one 10,000 (twenty files of 500): the time to its diff being interactive, the same way.
 * Target: the 10,000-line change ≤ 3 × the 100-line change (in one run).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { type Browser, chromium } from 'playwright-core';
import { buildPanelIfStale } from '../scripts/build-panel.js';
import { configWith } from '../src/config.js';
import { KANBAN_STATES } from '../src/modules/kanban/board.js';
import { projects } from '../src/modules/projects/schema.js';
import { tasks } from '../src/modules/tasks/schema.js';
import type { Db } from '../src/platform/db/client.js';
import { GitRunner } from '../src/platform/git/index.js';
import { commitToRemote, seedBareRemote } from '../src/platform/git/test-support.js';
import { loginUrl } from '../src/platform/http/auth/login-page.js';
import { type RunningServer, startServer } from '../src/server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumAvailable } from '../test/panel/support/browser.js';
import { ratio as benchRatio, report } from './support.js';

const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const JS_BUDGET = 250 * 1024;
const SHOTS = join(process.cwd(), 'test-results', 'panel');

interface Board {
  tasks: number;
  server: RunningServer;
  dataDir: string;
}

async function startBoard(count: number): Promise<Board> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-panel-'));
  const server = await startServer(
    configWith({ dataDir, port: 0, logLevel: 'warn', authSecret: SECRET, dispatchEnabled: false }),
  );
  await seed(server.platform.database.db, count);
  return { tasks: count, server, dataDir };
}

/** `count` tasks over 3 projects and 3 teams, spread evenly over the fifteen states. */
async function seed(db: Db, count: number): Promise<void> {
  const projectIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const [row] = await db
      .insert(projects)
      .values({
        slug: `bench-${i}`,
        name: `Bench ${i}`,
        gitUrl: `https://example.test/${i}.git`,
        createdBy: 'ceo',
      })
      .returning({ id: projects.id });
    projectIds.push(row!.id);
  }
  const teams = ['backend', 'frontend', 'ux_ui'];
  const now = Date.now();
  for (let start = 0; start < count; start += 1000) {
    const size = Math.min(1000, count - start);
    await db.insert(tasks).values(
      Array.from({ length: size }, (_, k) => {
        const i = start + k;
        return {
          title: `Bench task ${i}: a title about as long as a real one`,
          description: 'A task seeded for the panel benchmark.',
          acceptanceCriteria: [{ id: 'ac-1', text: 'It works.' }],
          status: KANBAN_STATES[i % KANBAN_STATES.length]!,
          priority: i % 4,
          taskType: 'code',
          nature: 'technical',
          complexity: 'medium',
          team: teams[i % 3]!,
          projectId: projectIds[i % 3]!,
          createdBy: 'ceo',
          updatedAt: new Date(now - i * 37_000),
        };
      }),
    );
  }
  await db.execute(sql`analyze tasks`);
}

/** The session cookie of a signed-in CEO (the login link's token swapped for it). */
async function sessionCookies(browser: Browser, board: { server: RunningServer }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(
    loginUrl({ publicUrl: board.server.url, host: '127.0.0.1', port: board.server.port }, SECRET, new Date()),
  );
  await page.waitForURL(`${board.server.url}/`);
  const cookies = await context.cookies();
  await context.close();
  return cookies;
}

interface Load {
  interactiveMs: number;
  cards: number;
  jsFiles: number;
  jsBytes: number;
  jsGzipBytes: number;
}

/** One cold load (fresh context: empty cache) of the kanban. */
async function coldLoad(
  browser: Browser,
  board: Board,
  cookies: Cookies,
  screenshotTo?: string,
): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const scripts: Promise<Buffer>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.body());
  });
  await page.goto(`${board.server.url}/tasks?view=kanban`);
  await page
    .locator('[data-testid="kanban"][data-ready="true"] article')
    .first()
    .waitFor({ timeout: 60_000 });
  // Interactive: the board is on screen and the main thread has a frame and a task free again.
  // (A string: it runs in the page, where requestAnimationFrame exists; Node's types do not know it.)
  const interactiveMs = (await page.evaluate(
    'new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)))',
  )) as number;
  const cards = await page.locator('[data-testid="kanban"] article').count();
  if (screenshotTo) await page.screenshot({ path: screenshotTo });
  const bodies = await Promise.all(scripts);
  await context.close();
  return {
    interactiveMs,
    cards,
    jsFiles: bodies.length,
    jsBytes: bodies.reduce((sum, body) => sum + body.length, 0),
    jsGzipBytes: bodies.reduce((sum, body) => sum + gzipSync(body).length, 0),
  };
}

interface Review {
  server: RunningServer;
  dataDir: string;
  /** Task ids by changed lines. */
  tasks: { lines: number; id: string }[];
}

/** One server with a local project whose two task branches change 100 and 10,000 lines. */
async function startReview(): Promise<Review> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-review-'));
  const runner = new GitRunner({ home: join(dataDir, 'git-home') });
  const remote = await seedBareRemote(runner, join(dataDir, 'shop.git'));
  const server = await startServer(
    configWith({
      dataDir: join(dataDir, 'data'),
      port: 0,
      logLevel: 'warn',
      authSecret: SECRET,
      dispatchEnabled: false,
    }),
  );
  const db = server.platform.database.db;
  const [project] = await db
    .insert(projects)
    .values({ slug: 'shop', name: 'Shop', gitUrl: remote, gitProvider: 'local', createdBy: 'ceo' })
    .returning({ id: projects.id });
  const made: Review['tasks'] = [];
  for (const [lines, fileCount] of [
    [100, 1],
    [10_000, 20],
  ] as const) {
    const branch = `feature/bench-${lines}`;
    const perFile = lines / fileCount;
    const files = Object.fromEntries(
      Array.from({ length: fileCount }, (_, f) => [
        `src/module-${f}.ts`,
        Array.from(
          { length: perFile },
          (_, i) => `export const value${f}_${i} = ${i}; // line ${i + 1}\n`,
        ).join(''),
      ]),
    );
    await commitToRemote(runner, remote, branch, files, `Bench change of ${lines} lines`, 'main');
    const [task] = await db
      .insert(tasks)
      .values({
        title: `Bench review of ${lines} lines`,
        description: 'A task seeded for the review benchmark.',
        acceptanceCriteria: [{ id: 'ac-1', text: 'It works.' }],
        status: 'awaiting_ceo_approval',
        taskType: 'code',
        nature: 'technical',
        complexity: 'medium',
        team: 'backend',
        projectId: project!.id,
        branchName: branch,
        createdBy: 'ceo',
      })
      .returning({ id: tasks.id });
    made.push({ lines, id: task!.id });
  }
  return { server, dataDir, tasks: made };
}

/** One cold load of a task's review page until its diff is on screen and the main thread free. */
async function coldReview(browser: Browser, review: Review, taskId: string, cookies: Cookies, shot?: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies(cookies);
  const page = await context.newPage();
  await page.goto(`${review.server.url}/tasks/${taskId}/changes`);
  await page.locator('[data-testid^="diff-file-"]').first().waitFor({ timeout: 60_000 });
  const interactiveMs = (await page.evaluate(
    'new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)))',
  )) as number;
  if (shot) await page.screenshot({ path: shot });
  await context.close();
  return interactiveMs;
}

type Cookies = Awaited<ReturnType<typeof sessionCookies>>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  if (!chromiumAvailable) {
    report(
      'panel',
      { skipped: `no chromium at ${CHROMIUM_PATH}` },
      { description: 'needs chromium', met: false },
    );
    return;
  }
  await buildPanelIfStale();
  const boards = [await startBoard(100), await startBoard(10_000)];
  const review = await startReview();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const cookies = await Promise.all(boards.map((b) => sessionCookies(browser, b)));
    // Warm-up: the server's first requests (module loading, query plans), not measured.
    // (It also saves a picture of each board: test-results/panel/bench-kanban-<tasks>.png.)
    mkdirSync(SHOTS, { recursive: true });
    for (const [i, b] of boards.entries())
      await coldLoad(browser, b, cookies[i]!, join(SHOTS, `bench-kanban-${b.tasks}.png`));
    const loads: Load[][] = boards.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, b] of boards.entries()) loads[i]!.push(await coldLoad(browser, b, cookies[i]!));
    }
    const summary = boards.map((b, i) => ({
      tasks: b.tasks,
      cards_rendered: loads[i]![0]!.cards,
      interactive_ms_median: Math.round(median(loads[i]!.map((l) => l.interactiveMs))),
      interactive_ms_all: loads[i]!.map((l) => Math.round(l.interactiveMs)),
    }));
    const ratio = summary[1]!.interactive_ms_median / summary[0]!.interactive_ms_median;

    // The review page: a warm-up load of each (and its picture), then alternating cold loads.
    const reviewCookies = await sessionCookies(browser, review);
    for (const t of review.tasks)
      await coldReview(browser, review, t.id, reviewCookies, join(SHOTS, `bench-review-${t.lines}.png`));
    const reviewLoads: number[][] = review.tasks.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, t] of review.tasks.entries())
        reviewLoads[i]!.push(await coldReview(browser, review, t.id, reviewCookies));
    }
    const reviews = review.tasks.map((t, i) => ({
      changed_lines: t.lines,
      interactive_ms_median: Math.round(median(reviewLoads[i]!)),
      interactive_ms_all: reviewLoads[i]!.map(Math.round),
    }));
    const reviewRatio = reviews[1]!.interactive_ms_median / reviews[0]!.interactive_ms_median;
    const first = loads[0]![0]!;
    const firstLoad = {
      js_files: first.jsFiles,
      js_kb: Math.round(first.jsBytes / 102.4) / 10,
      js_gzip_kb: Math.round(first.jsGzipBytes / 102.4) / 10,
    };
    report(
      'panel',
      {
        machine: {
          cpus: cpus().length,
          cpu: cpus()[0]?.model,
          memory_gb: Math.round(totalmem() / 2 ** 30),
          chromium: browser.version(),
        },
        rounds: ROUNDS,
        boards: summary,
        ratio_10000_to_100: Math.round(ratio * 100) / 100,
        first_load: firstLoad,
        review: reviews,
        review_ratio_10000_to_100_lines: Math.round(reviewRatio * 100) / 100,
      },
      {
        description:
          '10,000-task board ≤ 3 × the 100-task board; a 10,000-line change’s review ≤ 3 × a 100-line one; first-load JS ≤ 250 KB gzipped',
        met: first.jsGzipBytes <= JS_BUDGET,
        ratios: [
          benchRatio(
            'kanban interactive, 10,000 tasks / 100 tasks',
            ratio,
            'the 100-task board, same run',
            '<=',
            3,
          ),
          benchRatio(
            'review page interactive, 10,000 changed lines / 100',
            reviewRatio,
            'the 100-line change, same run',
            '<=',
            3,
          ),
        ],
      },
    );
  } finally {
    await browser.close();
    for (const b of [...boards, review]) {
      await b.server.close();
      rmSync(b.dataDir, { recursive: true, force: true });
    }
  }
}

await main();
