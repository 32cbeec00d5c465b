/**
 * The board-program runner on the real scheduler and a real database: cycles as rows (counts,
 * outcomes, triggers), disabled programs, run-now refusals, and cycles a stopped process left open.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestStores, type TestPlatform, type TestStores } from '../../../test/support/stores.js';
import { AppError } from '../../platform/http/errors.js';
import { createScheduler, type Hold, type Scheduler } from '../../platform/scheduler/index.js';
import { ABANDONED_DETAIL, listCycles, openCycle } from './cycle-store.js';
import type { BoardProgram, CycleContext } from './program.js';
import { BoardProgramRunner } from './runner.js';

const silentLog = { info() {}, warn() {}, error() {} };
/** How long a condition may take to come true (generous: suites run in parallel). */
const WAIT = { timeout: 15_000, interval: 20 };

let stores: TestStores;
let platform: TestPlatform;
let scheduler: Scheduler;
let hold: Hold | null;
let runner: BoardProgramRunner;
/** Each test drives a program of its own key, on one database for the file. */
let key = 'p0';
let keys = 0;

beforeAll(async () => {
  stores = await createTestStores();
  platform = await stores.platform();
});
afterAll(async () => {
  await stores.dispose();
});
beforeEach(() => {
  keys += 1;
  key = `p${keys}`;
  scheduler = createScheduler({ db: platform.database.db, locks: platform.locks, log: silentLog });
  hold = null;
  runner = new BoardProgramRunner({
    db: platform.database.db,
    clock: platform.clock,
    scheduler,
    holdFor: async () => hold,
  });
});
afterEach(async () => {
  await scheduler.stop();
});

const program = (over: Partial<BoardProgram> = {}): BoardProgram => ({
  key,
  title: 'Test program',
  description: 'A program the tests drive.',
  role: 'system',
  trigger: 'interval',
  intervalSeconds: 3600,
  scope: 'org',
  enabled: () => true,
  sweep: async () => {},
  ...over,
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('BoardProgramRunner', () => {
  it('records a run-now cycle with what the sweep counted, its messages bounded', async () => {
    runner.register(
      program({
        sweep: async (cycle: CycleContext) => {
          cycle.examined(3);
          cycle.examined();
          cycle.opened('00000000-0000-4000-8000-000000000001');
          cycle.skippedByCap(2);
          for (let i = 0; i < 25; i += 1) cycle.error(`repo ${i}: ${'x'.repeat(600)}`);
        },
      }),
    );
    const cycle = await runner.runNow(key);
    expect(cycle).toMatchObject({
      programKey: key,
      trigger: 'run_now',
      outcome: 'completed',
      outcomeDetail: null,
      itemsExamined: 4,
      tasksOpened: 1,
      openedTaskIds: ['00000000-0000-4000-8000-000000000001'],
      skippedByCap: 2,
      errors: 25,
    });
    expect(cycle.closedAt).not.toBeNull();
    expect(cycle.errorMessages).toHaveLength(20);
    expect(cycle.errorMessages[0]).toHaveLength(500);
  });

  it('closes a throwing sweep as failed with its error, and the next cycle runs', async () => {
    let calls = 0;
    runner.register(
      program({
        sweep: async () => {
          calls += 1;
          if (calls === 1) throw new Error('forge unreachable');
        },
      }),
    );
    expect(await runner.runNow(key)).toMatchObject({
      outcome: 'failed',
      outcomeDetail: 'forge unreachable',
      errors: 1,
      errorMessages: ['forge unreachable'],
    });
    expect((await runner.runNow(key)).outcome).toBe('completed');
  });

  it('runs cycles on its interval, and a disabled program polls nothing', async () => {
    let enabled = false;
    let sweeps = 0;
    runner.register(
      program({
        intervalSeconds: 0.05,
        firstRunAfterSeconds: 0,
        enabled: () => enabled,
        sweep: async () => {
          sweeps += 1;
        },
      }),
    );
    scheduler.start();
    await expect.poll(async () => (await scheduler.status())[0]?.passes ?? 0, WAIT).toBeGreaterThanOrEqual(2);
    expect(sweeps).toBe(0);
    expect(await listCycles(platform.database.db, key, 10)).toEqual([]);
    expect((await refusal(runner.runNow(key))).code).toBe('program_disabled');

    enabled = true;
    await expect.poll(() => sweeps, WAIT).toBeGreaterThanOrEqual(2);
    const cycles = await listCycles(platform.database.db, key, 10);
    expect(cycles.every((cycle) => cycle.trigger === 'interval')).toBe(true);
  });

  it('refuses run-now while held (naming the pause) and while a cycle is in flight', async () => {
    // The release is the sweep's own: the loop shows `running` while it still opens the cycle row,
    // before the sweep is called, and a release taken then would be lost and the cycle never end.
    let release!: () => void;
    const underWay = new Promise<void>((started) => {
      runner.register(
        program({
          sweep: () =>
            new Promise<void>((resolve) => {
              release = resolve;
              started();
            }),
        }),
      );
    });
    hold = {
      reason: 'maintenance pause on engines (drain) by ceo until 2026-01-01T04:00:00.000Z',
      interrupt: false,
    };
    const held = await refusal(runner.runNow(key));
    expect(held.statusCode).toBe(409);
    expect(held.code).toBe('maintenance_paused');
    expect(held.message).toContain('maintenance pause on engines');

    hold = null;
    const first = runner.runNow(key);
    await expect.poll(async () => (await scheduler.status())[0]?.running, WAIT).toBe(true);
    const busy = await refusal(runner.runNow(key));
    expect([busy.statusCode, busy.code]).toEqual([409, 'cycle_in_flight']);
    await underWay;
    release();
    expect((await first).outcome).toBe('completed');
    expect((await refusal(runner.runNow('nope'))).statusCode).toBe(404);
  });

  it('closes an aborted sweep as aborted with the reason', async () => {
    // The pause interrupts once the sweep is under way (listening to its signal): the loop shows
    // `running` a moment earlier, while its cycle row is opened, when an abort would go unheard.
    let underWay!: () => void;
    const started = new Promise<void>((resolve) => {
      underWay = resolve;
    });
    runner.register(
      program({
        sweep: (cycle) =>
          new Promise<void>((_resolve, reject) => {
            cycle.signal.addEventListener('abort', () => reject(cycle.signal.reason));
            underWay();
          }),
      }),
    );
    const running = runner.runNow(key);
    await started;
    expect((await scheduler.status())[0]?.running).toBe(true);
    expect(scheduler.interrupt('engines', 'maintenance pause on engines (kill)')).toBe(1);
    expect(await running).toMatchObject({
      outcome: 'aborted',
      outcomeDetail: 'maintenance pause on engines (kill)',
      errors: 0,
    });
  });

  it('closes a cycle a stopped process left running at the next pass', async () => {
    runner.register(program());
    const db = platform.database.db;
    const orphan = await openCycle(db, { programKey: key, trigger: 'interval', openedAt: new Date() });
    const next = await runner.runNow(key);
    const [latest, previous] = await listCycles(db, key, 10);
    expect(latest?.id).toBe(next.id);
    expect(previous).toMatchObject({
      id: orphan.id,
      outcome: 'failed',
      outcomeDetail: ABANDONED_DETAIL,
      errors: 1,
    });
    expect(previous?.closedAt).not.toBeNull();
  });

  it('refuses a malformed or duplicate program at registration', () => {
    expect(() => runner.register(program({ key: 'Bad Key' }))).toThrow(/key/);
    expect(() => runner.register(program({ intervalSeconds: 0 }))).toThrow(/intervalSeconds/);
    expect(() => runner.register(program({ title: ' ' }))).toThrow(/title/);
    runner.register(program());
    expect(() => runner.register(program())).toThrow(/already registered/);
  });
});
