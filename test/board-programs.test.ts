/**
 * The board-program runner through the real app, its scheduler and the maintenance pause:
 * /api/board-programs (CEO only), cycle history order and limit, run-now and its refusals, a drain
 * pause letting the in-flight sweep finish while nothing new starts, and a kill pause aborting a
 * sweep that is blocked on a slow HTTP call, with its temp files removed.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY } from '../src/modules/agents/roster.js';
import type { BoardProgram } from '../src/modules/board-programs/index.js';
import { fakeClock } from '../src/platform/clock.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { pause } from './support/ws-client.js';

const MINUTE = 60_000;
/** How long a condition may take to come true (generous: suites run in parallel). */
const WAIT = { timeout: 15_000, interval: 20 };

interface Cycle {
  id: string;
  program_key: string;
  trigger: string;
  opened_at: string;
  closed_at: string | null;
  items_examined: number;
  tasks_opened: number;
  skipped_by_cap: number;
  errors: number;
  error_messages: string[];
  outcome: string;
  outcome_detail: string | null;
}

interface ErrorBody {
  error: { code: string; message: string };
}

describe('board programs', () => {
  const clock = fakeClock(new Date('2026-03-01T12:00:00.000Z'));
  let t: TestApp;
  let programs = 0;

  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(async () => {
    for (const scope of ['board_programs', 'engines']) {
      await t.app.inject({ method: 'DELETE', url: `/api/maintenance-pause/${scope}`, headers: t.ceoHeaders });
    }
  });

  /** Registers a program of a fresh key (cycles run on run-now only, unless the interval says otherwise). */
  const register = (over: Partial<BoardProgram> = {}): string => {
    programs += 1;
    const key = over.key ?? `test_program_${programs}`;
    t.modules.boardPrograms.runner.register({
      key,
      title: `Test program ${programs}`,
      description: 'A program the tests drive.',
      role: 'system',
      trigger: 'interval',
      intervalSeconds: 3600,
      scope: 'project',
      enabled: () => true,
      sweep: async () => {},
      ...over,
    });
    return key;
  };
  const runNow = (key: string) =>
    t.app.inject({ method: 'POST', url: `/api/board-programs/${key}/run-now`, headers: t.ceoHeaders });
  const cycles = async (key: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/board-programs/${key}/cycles${query}`, headers: t.ceoHeaders });
  const pauseScope = (scope: string, mode: 'drain' | 'kill') =>
    t.app.inject({
      method: 'POST',
      url: `/api/maintenance-pause/${scope}`,
      headers: t.ceoHeaders,
      payload: { mode, reason: 'test pause' },
    });

  it('runs one cycle now and answers with it; the list shows the program and that last cycle', async () => {
    const key = register({
      sweep: async (cycle) => {
        cycle.examined(2);
        cycle.opened('00000000-0000-4000-8000-0000000000aa');
        cycle.skippedByCap(1);
        cycle.error('repo b: 502 from the forge');
      },
    });
    const response = await runNow(key);
    expect(response.statusCode).toBe(200);
    const cycle = json<Cycle>(response);
    expect(cycle).toMatchObject({
      program_key: key,
      trigger: 'run_now',
      opened_at: '2026-03-01T12:00:00.000Z',
      closed_at: '2026-03-01T12:00:00.000Z',
      items_examined: 2,
      tasks_opened: 1,
      skipped_by_cap: 1,
      errors: 1,
      error_messages: ['repo b: 502 from the forge'],
      outcome: 'completed',
      outcome_detail: null,
    });

    const list = json<{ programs: Record<string, unknown>[] }>(
      await t.app.inject({ method: 'GET', url: '/api/board-programs', headers: t.ceoHeaders }),
    );
    expect(list.programs.find((program) => program.key === key)).toEqual({
      key,
      title: expect.any(String),
      description: 'A program the tests drive.',
      role: 'system',
      trigger: 'interval',
      interval_seconds: 3600,
      scope: 'project',
      enabled: true,
      last_cycle: { ...cycle, opened_task_ids: ['00000000-0000-4000-8000-0000000000aa'] },
      held_by_pause: null,
    });
  });

  it('lists cycles newest first, limited (1–100, default 20); other limits are 422, unknown keys 404', async () => {
    const key = register();
    const opened: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      opened.push(json<Cycle>(await runNow(key)).id);
      clock.advance(MINUTE);
    }
    const all = json<{ cycles: Cycle[] }>(await cycles(key, '?limit=100')).cycles;
    expect(all.map((cycle) => cycle.id)).toEqual([...opened].reverse());
    const byDefault = json<{ cycles: Cycle[] }>(await cycles(key)).cycles;
    expect(byDefault.map((cycle) => cycle.id)).toEqual(all.slice(0, 20).map((cycle) => cycle.id));
    const three = json<{ cycles: Cycle[] }>(await cycles(key, '?limit=3')).cycles;
    expect(three.map((cycle) => cycle.id)).toEqual(all.slice(0, 3).map((cycle) => cycle.id));
    expect(json<{ cycles: Cycle[] }>(await cycles(key, '?limit=1')).cycles).toHaveLength(1);
    for (const bad of ['?limit=0', '?limit=101', '?limit=-1', '?limit=many']) {
      expect((await cycles(key, bad)).statusCode, bad).toBe(422);
    }
    expect((await cycles('no_such_program')).statusCode).toBe(404);
    expect((await runNow('no_such_program')).statusCode).toBe(404);
  });

  it('refuses run-now with 409 naming the pause while board_programs or engines is paused', async () => {
    const key = register();
    for (const scope of ['board_programs', 'engines']) {
      expect((await pauseScope(scope, 'drain')).statusCode).toBe(200);
      const refused = await runNow(key);
      expect(refused.statusCode).toBe(409);
      const { error } = json<ErrorBody>(refused);
      expect(error.code).toBe('maintenance_paused');
      expect(error.message).toContain(`maintenance pause on ${scope} (drain)`);
      const list = json<{ programs: { key: string; held_by_pause: string | null }[] }>(
        await t.app.inject({ method: 'GET', url: '/api/board-programs', headers: t.ceoHeaders }),
      );
      expect(list.programs.find((program) => program.key === key)?.held_by_pause).toContain(scope);
      await t.app.inject({ method: 'DELETE', url: `/api/maintenance-pause/${scope}`, headers: t.ceoHeaders });
    }
    await pauseScope('dispatch', 'kill'); // another scope holds nothing here
    expect((await runNow(key)).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: '/api/maintenance-pause/dispatch', headers: t.ceoHeaders });
    expect(json<{ cycles: Cycle[] }>(await cycles(key)).cycles).toHaveLength(1);
  });

  it('refuses run-now of a disabled program, which polls nothing', async () => {
    let sweeps = 0;
    const key = register({
      enabled: () => false,
      sweep: async () => {
        sweeps += 1;
      },
    });
    const refused = await runNow(key);
    expect(refused.statusCode).toBe(409);
    expect(json<ErrorBody>(refused).error.code).toBe('program_disabled');
    expect(sweeps).toBe(0);
    expect(json<{ cycles: Cycle[] }>(await cycles(key)).cycles).toEqual([]);
  });

  it('is CEO only: 403 for every other role on every route', async () => {
    const key = register();
    for (const role of ['developer', 'main_pm', 'product_owner', 'auditor'] as const) {
      const agent = DEFAULT_COMPANY.find((entry) => entry.role === role);
      if (!agent) throw new Error(`the seeded company has no ${role}`);
      const headers = t.headersFor(agent.id, agent.role, agent.team ?? '');
      const calls = await Promise.all([
        t.app.inject({ method: 'GET', url: '/api/board-programs', headers }),
        t.app.inject({ method: 'GET', url: `/api/board-programs/${key}/cycles`, headers }),
        t.app.inject({ method: 'POST', url: `/api/board-programs/${key}/run-now`, headers }),
      ]);
      expect(calls.map((response) => response.statusCode)).toEqual([403, 403, 403]);
    }
    expect(json<{ cycles: Cycle[] }>(await cycles(key)).cycles).toEqual([]);
  });

  it('drain: the in-flight sweep finishes, and no new sweep starts until the pause is lifted', async () => {
    let sweeps = 0;
    let release = () => {};
    let enabled = true;
    const key = register({
      intervalSeconds: 0.05,
      firstRunAfterSeconds: 0,
      enabled: () => enabled,
      sweep: async (cycle) => {
        sweeps += 1;
        if (sweeps > 1) return;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        cycle.examined(1);
      },
    });
    await expect.poll(() => sweeps, WAIT).toBe(1);
    expect((await pauseScope('engines', 'drain')).statusCode).toBe(200);
    expect((await runNow(key)).statusCode).toBe(409);
    release();
    await expect
      .poll(async () => json<{ cycles: Cycle[] }>(await cycles(key)).cycles[0]?.outcome, WAIT)
      .toBe('completed');
    const [finished] = json<{ cycles: Cycle[] }>(await cycles(key)).cycles;
    expect(finished).toMatchObject({ trigger: 'interval', items_examined: 1, outcome: 'completed' });
    await pause(500); // ten intervals
    expect(sweeps).toBe(1);
    expect(json<{ cycles: Cycle[] }>(await cycles(key)).cycles).toHaveLength(1);

    await t.app.inject({ method: 'DELETE', url: '/api/maintenance-pause/engines', headers: t.ceoHeaders });
    await expect.poll(() => sweeps, WAIT).toBeGreaterThan(1);
    enabled = false; // quiet for the rest of the file
  });

  describe('kill', () => {
    let server: Server;
    let url: string;
    let requested: Promise<void>;

    beforeAll(async () => {
      let arrived = () => {};
      requested = new Promise((resolve) => {
        arrived = resolve;
      });
      // A forge that accepts the request and never answers.
      server = createServer(() => arrived());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repos/acme/app/actions/runs`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('aborts the in-flight sweep blocked on a slow HTTP call; its cycle closes aborted, its temp files gone', async () => {
      let workDir = '';
      const key = register({
        sweep: async (cycle) => {
          workDir = mkdtempSync(join(tmpdir(), 'gaffer-sweep-'));
          writeFileSync(join(workDir, 'clone.txt'), 'a throwaway clone');
          try {
            cycle.examined(1);
            await fetch(url, { signal: cycle.signal });
            cycle.examined(1);
          } finally {
            await rm(workDir, { recursive: true, force: true });
          }
        },
      });
      const inFlight = runNow(key);
      await requested;
      expect(existsSync(join(workDir, 'clone.txt'))).toBe(true);

      const killed = await pauseScope('engines', 'kill');
      expect(killed.statusCode).toBe(200);
      const response = await inFlight;
      expect(response.statusCode).toBe(200);
      const cycle = json<Cycle>(response);
      expect(cycle).toMatchObject({ program_key: key, outcome: 'aborted', items_examined: 1, errors: 0 });
      expect(cycle.closed_at).not.toBeNull();
      expect(cycle.outcome_detail).toContain('maintenance pause on engines (kill)');
      expect(existsSync(workDir)).toBe(false);

      const refused = await runNow(key);
      expect(refused.statusCode).toBe(409);
      expect(json<ErrorBody>(refused).error.message).toContain('maintenance pause on engines (kill)');
    });
  });
});
