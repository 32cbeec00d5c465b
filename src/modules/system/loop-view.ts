/** A scheduler loop as `/api/orchestrator/state` shows it, with the pure "stalled" judgement. */
import { Type } from 'typebox';
import type { LoopStatus } from '../../platform/scheduler/index.js';

/** A loop is stalled when it has not succeeded for this many intervals. */
export const STALLED_AFTER_INTERVALS = 2;

export const LoopView = Type.Object({
  name: Type.String({
    description: 'Stable loop name, e.g. `notifications.sweep`, `board-program.ci_watch`.',
  }),
  interval_seconds: Type.Number(),
  tags: Type.Array(Type.String(), { description: 'The pause scopes that hold the loop, if any.' }),
  running: Type.Boolean({ description: 'A pass is in flight on the replica that answered.' }),
  last_started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_success_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_failure_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  passes: Type.Integer(),
  failures: Type.Integer(),
  stalled: Type.Boolean({
    description: `No success for ${STALLED_AFTER_INTERVALS} intervals since the loop first started.`,
  }),
});

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Never started is not stalled (the first pass waits one interval); started and silent for long is. */
export function isStalled(loop: LoopStatus, now: Date): boolean {
  const since = loop.lastSuccessAt ?? loop.lastStartedAt;
  if (!since) return false;
  return now.getTime() - since.getTime() > STALLED_AFTER_INTERVALS * loop.intervalSeconds * 1000;
}

export function loopView(loop: LoopStatus, now: Date) {
  return {
    name: loop.name,
    interval_seconds: loop.intervalSeconds,
    tags: [...loop.tags],
    running: loop.running,
    last_started_at: iso(loop.lastStartedAt),
    last_success_at: iso(loop.lastSuccessAt),
    last_failure_at: iso(loop.lastFailureAt),
    last_error: loop.lastError,
    passes: loop.passes,
    failures: loop.failures,
    stalled: isStalled(loop, now),
  };
}
