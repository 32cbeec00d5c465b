/**
 * A scheduler loop held by maintenance-pause scopes. The loop declares the scopes that hold it,
 * once; its `hold` (asked before every pass) and its `tags` (what a kill pause of a scope
 * interrupts, through `scheduler.interrupt(scope)`) are both derived from that declaration.
 */
import type { Hold, LoopDefinition } from '../../platform/scheduler/index.js';
import type { PauseScope } from './pause-rules.js';

export interface PausableLoop extends Omit<LoopDefinition, 'tags' | 'hold'> {
  /** The pause scopes that hold the loop: a pass runs only while none of them is paused. */
  readonly pauseScopes: readonly PauseScope[];
}

/** The scheduler's loop definition of `loop`: tagged with its scopes and held by them. */
export function pausableLoop(
  loop: PausableLoop,
  holdFor: (scopes: readonly PauseScope[]) => Promise<Hold | null>,
): LoopDefinition {
  const { pauseScopes, ...definition } = loop;
  return { ...definition, tags: [...pauseScopes], hold: () => holdFor(pauseScopes) };
}
