/**
 * Scale-out, as users deploy it: three real `gaffer start` processes on one PostgreSQL database and
 * one Redis key prefix, talked to over HTTP and WebSockets. An event raised on one replica reaches
 * /ws/system on all three; a dispatch pause set on one holds dispatch on all; a scheduler loop runs
 * once per interval across the three, also after its lease holder is SIGKILLed; an agent runs on one
 * replica and is stopped through another (forwarded over the bus); feature flags and the roster
 * converge as the README says.
 *
 * Needs the real servers: skipped without GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import {
  eventually,
  type JsonAnswer,
  type Replica,
  type Replicas,
  startReplicas,
} from './support/replicas.js';
import { createTestStores, type TestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';
import { connect, type StreamClient } from './support/ws-client.js';

const SWEEP_SECONDS = 1;

describe.skipIf(!testDatabaseUrl || !testRedisUrl)(
  'three gaffer start replicas on one PostgreSQL and one Redis (needs GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL)',
  () => {
    let stores: TestStores;
    let cluster: Replicas;
    let replicas: Replica[];

    beforeAll(async () => {
      stores = await createTestStores();
      cluster = await startReplicas(3, stores, {
        env: {
          GAFFER_NOTIFICATION_SWEEP_INTERVAL_SECONDS: String(SWEEP_SECONDS),
          // A real agent process that runs until stopped: `sleep`, started by the process runtime.
          GAFFER_AGENT_PROVIDER: 'custom',
          GAFFER_AGENT_COMMAND_CUSTOM: 'sleep 600',
          GAFFER_KILL_GRACE_SECONDS: '2',
        },
      });
      replicas = cluster.replicas;
    }, 120_000);
    afterAll(async () => {
      await cluster?.close();
      await stores?.dispose();
    }, 60_000);

    const json = async (response: Response) => ({
      status: response.status,
      body: (await response.json()) as JsonAnswer,
    });

    it('an event raised on one replica reaches /ws/system on all three; a dispatch pause there holds all', async () => {
      const sockets: StreamClient[] = [];
      try {
        for (const r of replicas) sockets.push((await connect(`ws://127.0.0.1:${r.port}/ws/system`)).client);
        const paused = await json(
          await replicas[0]!.asCeo('/api/maintenance-pause/dispatch', {
            body: { mode: 'drain', reason: 'replica drill' },
          }),
        );
        expect(paused.status, JSON.stringify(paused.body)).toBe(200);
        for (const [i, socket] of sockets.entries()) {
          const frame = (await socket.next(10_000)) as JsonAnswer;
          expect(frame, `replica ${i}`).toMatchObject({
            type: 'MAINTENANCE_PAUSE_CHANGED',
            scope: 'dispatch',
            paused: true,
          });
        }
        // Every replica holds dispatch: its state says so and a manual spawn is refused.
        for (const r of replicas) {
          const state = await json(await r.asCeo('/api/orchestrator/dispatcher'));
          expect(state.body.held, `replica ${r.index}`).toMatchObject({
            reason: expect.stringContaining('replica drill'),
          });
          const spawn = await json(await r.asCeo('/api/orchestrator/agents/be-dev-1/spawn', { body: {} }));
          expect(spawn.status, `replica ${r.index}`).toBe(409);
          expect(spawn.body.error.code).toBe('dispatch_paused');
        }
        expect(
          (await replicas[2]!.asCeo('/api/maintenance-pause/dispatch', { method: 'DELETE' })).status,
        ).toBe(200);
        for (const socket of sockets) {
          expect(await socket.next(10_000)).toMatchObject({
            type: 'MAINTENANCE_PAUSE_CHANGED',
            paused: false,
          });
        }
        for (const r of replicas) {
          expect((await json(await r.asCeo('/api/orchestrator/dispatcher'))).body.held).toBeNull();
        }
      } finally {
        for (const socket of sockets) socket.close();
      }
    }, 60_000);

    it('stops an agent whichever replica receives the stop, and says not running when none runs it', async () => {
      const spawned = await json(
        await replicas[0]!.asCeo('/api/orchestrator/agents/be-dev-1/spawn', { body: { prompt: 'wait' } }),
      );
      expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
      const runId = spawned.body.run.run_id as string;
      // Only replica 0 runs it.
      expect((await json(await replicas[1]!.asCeo('/api/orchestrator/agents'))).body.agents ?? []).toEqual(
        [],
      );

      const stopped = await json(
        await replicas[1]!.asCeo('/api/orchestrator/agents/be-dev-1/stop', { body: { graceful: true } }),
      );
      expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
      expect(stopped.body).toMatchObject({
        agent_id: rosterMember('be-dev-1').id,
        run_id: runId,
        outcome: 'stopped',
      });
      const running = await json(await replicas[0]!.asCeo('/api/orchestrator/agents'));
      expect(running.body.agents).toEqual([]);

      for (const r of replicas) {
        const again = await json(
          await r.asCeo('/api/orchestrator/agents/be-dev-1/stop', { body: { graceful: false } }),
        );
        expect(again.status, `replica ${r.index}`).toBe(409);
        expect(again.body.error.code).toBe('agent_not_running');
        expect(again.body.correlation_id).toEqual(expect.any(String));
      }
      const unknown = await json(
        await replicas[2]!.asCeo('/api/orchestrator/agents/no-such-agent/stop', { body: { graceful: true } }),
      );
      expect(unknown.status).toBe(404);

      // Killed at once through a third replica, while another agent runs on the second.
      expect(
        (await replicas[1]!.asCeo('/api/orchestrator/agents/fe-dev-1/spawn', { body: { prompt: 'wait' } }))
          .status,
      ).toBe(201);
      const killed = await json(
        await replicas[2]!.asCeo('/api/orchestrator/agents/fe-dev-1/stop', { body: { graceful: false } }),
      );
      expect(killed.status, JSON.stringify(killed.body)).toBe(200);
      expect(killed.body.outcome).toBe('killed');
    }, 60_000);

    it('feature flags are persisted at once on every replica and in force on a replica after its restart', async () => {
      const put = await replicas[0]!.asCeo('/api/settings/telegram_enabled', {
        method: 'PUT',
        body: { value: true },
      });
      expect(put.status).toBe(200);
      const flagOn = async (r: Replica) =>
        ((await json(await r.asCeo('/api/settings/feature-flags'))).body.flags as JsonAnswer[]).find(
          (flag) => flag.key === 'telegram_enabled',
        );
      for (const r of replicas) {
        expect(await flagOn(r), `replica ${r.index}`).toMatchObject({
          persisted: true,
          effective: false,
          restart_required: true,
        });
      }
      await replicas[2]!.stop();
      await replicas[2]!.restart();
      expect(await flagOn(replicas[2]!)).toMatchObject({
        persisted: true,
        effective: true,
        restart_required: false,
      });
      expect(await flagOn(replicas[1]!)).toMatchObject({ effective: false, restart_required: true });
    }, 90_000);

    it('a retirement on one replica is seen at once there and within the roster cache time on the others', async () => {
      const member = rosterMember('ux-dev-2');
      const headers = cluster.headersFor(member.id, member.role, member.team ?? '');
      const session = (r: Replica) => fetch(`${r.base}/api/auth/session`, { headers });
      for (const r of replicas) expect((await session(r)).status, `replica ${r.index}`).toBe(200);
      expect((await replicas[1]!.asCeo('/api/agents/ux-dev-2/retire', { body: {} })).status).toBe(200);
      expect((await session(replicas[1]!)).status).toBe(401);
      for (const r of replicas) {
        await eventually(
          async () => expect((await session(r)).status, `replica ${r.index}`).toBe(401),
          15_000,
        );
      }
    }, 60_000);

    it('runs a scheduler loop as one across the three (the shared tick), also after the lease holder is SIGKILLed', async () => {
      const passes = async (r: Replica) => {
        const state = await json(await r.asCeo('/api/orchestrator/state'));
        return (state.body.loops as JsonAnswer[]).find((loop) => loop.name === 'notifications.sweep')
          ?.passes as number;
      };
      // Passes counted over about `seconds`, and the most the shared tick allows in the time that
      // really passed between the two reads: one per interval-long slot of the database clock, plus
      // the one at the edge. Three replicas each running the loop on their own would make three per
      // interval.
      const window = async (r: Replica, seconds: number) => {
        const started = Date.now();
        const before = await passes(r);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        const after = await passes(r);
        const most = Math.ceil((Date.now() - started) / 1000 / SWEEP_SECONDS) + 1;
        return { made: after - before, most };
      };
      // A replica stopped earlier in the file (SIGTERM, then SIGKILL after 10 s while its agents get
      // their kill grace) may have left the loop's lease to expire (30 s): the window starts once the
      // loop runs again.
      const idle = await passes(replicas[0]!);
      await eventually(async () => expect(await passes(replicas[0]!)).toBeGreaterThan(idle), 45_000, 250);
      const together = await window(replicas[0]!, 10);
      expect(together.made).toBeGreaterThanOrEqual(2);
      expect(together.made).toBeLessThanOrEqual(together.most);

      // Two of the three die at once: the lease holder among them keeps the lease until it expires
      // (30 s), then the survivor takes the loop over alone.
      const beforeKill = await passes(replicas[2]!);
      await replicas[0]!.kill();
      await replicas[1]!.kill();
      await eventually(
        async () => expect(await passes(replicas[2]!)).toBeGreaterThan(beforeKill + 1),
        45_000,
        500,
      );
      const survivor = await window(replicas[2]!, 6);
      expect(survivor.made).toBeGreaterThanOrEqual(1);
      expect(survivor.made).toBeLessThanOrEqual(survivor.most);
      await Promise.all([replicas[0]!.restart(), replicas[1]!.restart()]);
      const restarted = await window(replicas[1]!, 10);
      expect(restarted.made).toBeGreaterThanOrEqual(2);
      expect(restarted.made).toBeLessThanOrEqual(restarted.most);
    }, 150_000);
  },
);
