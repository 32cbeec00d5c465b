/**
 * The runtime's two scheduler loops: closing, as lost, the runs no server has vouched for in
 * LOST_RUN_AFTER_MS (each announced as AGENT_ERROR), and the daily transcript prune.
 */
import type { Platform } from '../../platform/context.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { SettingsModule } from '../settings/index.js';
import { LOST_RUN_AFTER_MS, RUN_VOUCH_INTERVAL_MS } from './supervisor.js';
import { closeLostRuns, LOST_RUN_DETAIL } from './transcript-store.js';

/** The loop closing, as lost, the runs no server has vouched for in LOST_RUN_AFTER_MS. */
export const LOST_RUNS_LOOP = 'runtime.lost-runs';

/** The daily loop deleting transcripts older than the `transcript_retention_days` setting. */
export const TRANSCRIPT_PRUNE_LOOP = 'runtime.transcript-prune';

export function registerRuntimeLoops(
  platform: Platform,
  scheduler: Scheduler,
  settings: SettingsModule,
  prune: (retentionDays: number) => Promise<unknown>,
): void {
  const { db } = platform.database;
  scheduler.register({
    name: LOST_RUNS_LOOP,
    intervalMs: RUN_VOUCH_INTERVAL_MS,
    run: async () => {
      const now = platform.clock.now();
      const staleBefore = new Date(now.getTime() - LOST_RUN_AFTER_MS);
      for (const run of await closeLostRuns(db, { now, staleBefore })) {
        const event = { agent_id: run.agentId, task_id: run.taskId, run_id: run.id, detail: LOST_RUN_DETAIL };
        await platform.bus.publish('AGENT_ERROR', event);
      }
    },
  });
  scheduler.register({
    name: TRANSCRIPT_PRUNE_LOOP,
    intervalMs: 24 * 3_600_000,
    run: async () => {
      await prune(await settings.service.get('transcript_retention_days'));
    },
  });
}
