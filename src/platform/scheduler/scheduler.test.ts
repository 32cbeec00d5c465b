import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestStores, type TestPlatform, type TestStores } from '../../../test/support/stores.js';
import { createScheduler } from './scheduler.js';
import type { Hold, LoopDefinition, Scheduler } from './types.js';

const silentLog = { info() {}, warn() {}, error() {} };
const HOUR = 3_600_000;

let stores: TestStores;
let platform: TestPlatform;
const started: Scheduler[] = [];
/** Each test's loop has a name of its own, so the tests share one store for the file. */
let loopName = 'test.loop.0';
let tests = 0;

beforeAll(async () => {
  stores = await createTestStores();
  platform = await stores.platform();
});
afterAll(async () => {
  await stores.dispose();
});
beforeEach(() => {
  tests += 1;
  loopName = `test.loop.${tests}`;
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((scheduler) => scheduler.stop()));
});

function schedulerOn(target: TestPlatform = platform, leaseTtlMs?: number): Scheduler {
  const scheduler = createScheduler({
    db: target.database.db,
    locks: target.locks,
    log: silentLog,
    ...(leaseTtlMs ? { leaseTtlMs } : {}),
  });
  started.push(scheduler);
  return scheduler;
}

const until = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 400; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** A run that stays in flight until released or aborted, and says how it ended. */
function blockingRun() {
  let release = () => {};
  const ends: string[] = [];
  const run = (signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      release = () => {
        ends.push('finished');
        resolve();
      };
      signal.addEventListener('abort', () => {
        ends.push('aborted');
        reject(signal.reason);
      });
    });
  return { run, ends, release: () => release() };
}

const loop = (overrides: Partial<LoopDefinition> & Pick<LoopDefinition, 'run'>): LoopDefinition => ({
  name: loopName,
  intervalMs: HOUR,
  ...overrides,
});

describe('scheduler', () => {
  it('runs the first pass one interval after start, not at once', async () => {
    let passes = 0;
    const scheduler = schedulerOn();
    scheduler.register(
      loop({
        run: async () => {
          passes += 1;
        },
      }),
    );
    scheduler.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(passes).toBe(0);
    expect((await scheduler.status())[0]).toMatchObject({
      name: loopName,
      intervalSeconds: 3600,
      passes: 0,
    });
  });

  it('runs at once when configured so, then every interval, recording the last success', async () => {
    let passes = 0;
    const scheduler = schedulerOn();
    scheduler.register(
      loop({
        intervalMs: 150,
        firstRunAfterMs: 0,
        run: async () => {
          passes += 1;
        },
      }),
    );
    scheduler.start();
    await until(() => passes >= 3, 'three passes');
    const [status] = await scheduler.status();
    expect(status?.lastSuccessAt).toBeInstanceOf(Date);
    expect(status?.passes).toBeGreaterThanOrEqual(3);
    expect(status?.failures).toBe(0);
  });

  it('swallows a failing pass and keeps the loop going', async () => {
    let calls = 0;
    const scheduler = schedulerOn();
    scheduler.register(
      loop({
        intervalMs: 150,
        firstRunAfterMs: 0,
        run: async () => {
          calls += 1;
          if (calls === 1) throw new Error('forge unreachable');
        },
      }),
    );
    scheduler.start();
    await until(
      async () => (await scheduler.status())[0]?.lastSuccessAt != null,
      'a success after the failure',
    );
    const [status] = await scheduler.status();
    expect(status).toMatchObject({ failures: 1, lastError: 'forge unreachable' });
    expect(status?.lastFailureAt).toBeInstanceOf(Date);
  });

  it('does not start a pass while the hold says so, and a failing hold check holds too', async () => {
    let passes = 0;
    let hold: Hold | null = { reason: 'maintenance pause on engines', interrupt: false };
    const scheduler = schedulerOn();
    scheduler.register(
      loop({
        run: async () => {
          passes += 1;
        },
        hold: async () => hold,
      }),
    );
    expect(await scheduler.runNow(loopName)).toEqual({
      status: 'held',
      reason: 'maintenance pause on engines',
    });
    scheduler.register(
      loop({
        name: 'test.failing-hold',
        run: async () => {
          passes += 1;
        },
        hold: async () => {
          throw new Error('settings store unreachable');
        },
      }),
    );
    expect(await scheduler.runNow('test.failing-hold')).toEqual({
      status: 'held',
      reason: 'the hold check failed: settings store unreachable',
    });
    hold = null;
    expect(await scheduler.runNow(loopName)).toEqual({ status: 'succeeded' });
    expect(passes).toBe(1);
  });

  it('answers busy while a pass of the loop is in flight', async () => {
    const blocking = blockingRun();
    const scheduler = schedulerOn();
    scheduler.register(loop({ run: blocking.run }));
    const first = scheduler.runNow(loopName);
    await until(async () => (await scheduler.status())[0]?.running === true, 'the pass to start');
    expect(await scheduler.runNow(loopName)).toEqual({ status: 'busy' });
    blocking.release();
    expect(await first).toEqual({ status: 'succeeded' });
  });

  it('interrupts the in-flight passes carrying a tag, and only those', async () => {
    const engine = blockingRun();
    const other = blockingRun();
    const scheduler = schedulerOn();
    scheduler.register(loop({ name: 'engine', tags: ['engines'], run: engine.run }));
    scheduler.register(loop({ name: 'other', tags: ['dispatch'], run: other.run }));
    const enginePass = scheduler.runNow('engine');
    const otherPass = scheduler.runNow('other');
    await until(async () => (await scheduler.status()).every((s) => s.running), 'both passes to start');
    expect(scheduler.interrupt('engines', 'maintenance pause on engines (kill)')).toBe(1);
    expect(await enginePass).toEqual({ status: 'aborted', reason: 'maintenance pause on engines (kill)' });
    expect(engine.ends).toEqual(['aborted']);
    other.release();
    expect(await otherPass).toEqual({ status: 'succeeded' });
    const engineStatus = (await scheduler.status()).find((s) => s.name === 'engine');
    expect(engineStatus).toMatchObject({
      failures: 1,
      lastError: 'aborted: maintenance pause on engines (kill)',
    });
  });

  it('aborts an in-flight pass when its hold turns into an interrupting one', async () => {
    const blocking = blockingRun();
    let hold: Hold | null = null;
    // The watchdog re-asks the hold every third of the lease; a lease long enough that a loaded
    // machine's pauses never lose it, so the pass ends for the hold's reason.
    const scheduler = schedulerOn(platform, 1_500);
    scheduler.register(loop({ run: blocking.run, hold: async () => hold }));
    const pass = scheduler.runNow(loopName);
    await until(async () => (await scheduler.status())[0]?.running === true, 'the pass to start');
    hold = { reason: 'maintenance pause on engines (kill)', interrupt: true };
    expect(await pass).toEqual({ status: 'aborted', reason: 'maintenance pause on engines (kill)' });
  });

  it('lets a draining hold finish the in-flight pass', async () => {
    const blocking = blockingRun();
    let hold: Hold | null = null;
    let asked = 0;
    const scheduler = schedulerOn(platform, 1_500);
    scheduler.register(
      loop({
        run: blocking.run,
        hold: async () => {
          asked += 1;
          return hold;
        },
      }),
    );
    const pass = scheduler.runNow(loopName);
    await until(async () => (await scheduler.status())[0]?.running === true, 'the pass to start');
    hold = { reason: 'maintenance pause on engines (drain)', interrupt: false };
    const before = asked;
    await until(() => asked >= before + 3, 'a few watchdog rounds that see the draining hold');
    blocking.release();
    expect(await pass).toEqual({ status: 'succeeded' });
    expect(await scheduler.runNow(loopName)).toMatchObject({ status: 'held' });
  });

  it('aborts in-flight passes when stopped', async () => {
    const blocking = blockingRun();
    const scheduler = schedulerOn();
    scheduler.register(loop({ run: blocking.run }));
    const pass = scheduler.runNow(loopName);
    await until(async () => (await scheduler.status())[0]?.running === true, 'the pass to start');
    await scheduler.stop();
    expect(await pass).toEqual({ status: 'aborted', reason: 'the scheduler is stopping' });
  });

  it('does not run a tick that was still starting when stop() was called', async () => {
    let answerHold = () => {};
    let asked = false;
    let passes = 0;
    const scheduler = schedulerOn();
    scheduler.register(
      loop({
        firstRunAfterMs: 0,
        hold: () =>
          new Promise<null>((resolve) => {
            asked = true;
            answerHold = () => resolve(null);
          }),
        run: async () => {
          passes += 1;
        },
      }),
    );
    scheduler.start();
    await until(() => asked, 'the tick to ask its hold');
    await scheduler.stop();
    answerHold();
    // The tick claims its interval under its lease; its pass has ended once the lease is free again.
    await until(async () => (await scheduler.status())[0]?.lastStartedAt !== null, 'the tick to claim');
    await until(
      async () => (await platform.locks.acquire(`scheduler:${loopName}`, 1_000)) !== null,
      'the lease',
    );
    expect(passes).toBe(0);
  });

  it('runs a tick on exactly one of two schedulers sharing the stores', async () => {
    // Two processes on PostgreSQL; on embedded PGlite (one process per data dir) two schedulers on it.
    const second = stores.databaseUrl ? await stores.platform() : platform;
    const runs: string[] = [];
    const replicas = [schedulerOn(platform), schedulerOn(second)];
    replicas.forEach((scheduler, index) => {
      scheduler.register(
        loop({
          firstRunAfterMs: 0,
          run: async () => {
            runs.push(`replica-${index}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          },
        }),
      );
    });
    for (const scheduler of replicas) scheduler.start();
    await until(async () => (await replicas[0]!.status())[0]?.lastSuccessAt != null, 'the tick to run');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs).toHaveLength(1);
  });

  it('refuses a second loop of the same name', () => {
    const scheduler = schedulerOn();
    scheduler.register(loop({ run: async () => {} }));
    expect(() => scheduler.register(loop({ run: async () => {} }))).toThrow(/already registered/);
  });
});
