/**
 * Where the work of a task stands, as the dispatcher and its sweeps read the state machine: which
 * states are live, whose turn it is (an agent's, or a person's), which the owner is working now,
 * and which claims the system may release.
 */
import { ACTIVE_STATES, holdsClaim, NON_TERMINAL_STATES, type TaskStatus } from './states.js';
import { edgesOf } from './transitions.js';

/** Live work: released from the backlog, not stopped (blocked), not over. */
export const LIVE_STATES: readonly TaskStatus[] = NON_TERMINAL_STATES.filter(
  (status) => status !== 'backlog' && status !== 'blocked',
);

/**
 * Live states whose next move is an agent's (to claim, work, resume or review): all but the CEO's
 * desk, where only a person signs off.
 */
export const AGENT_TURN_STATES: readonly TaskStatus[] = LIVE_STATES.filter(
  (status) => status !== 'awaiting_ceo_approval',
);

/** Active states in which the owner holds the claim: the task is being worked right now. */
export const IN_WORK_STATES: readonly TaskStatus[] = ACTIVE_STATES.filter(holdsClaim);

/** Active states in which the owner makes the work (in verifying it only checks what it made). */
export const BUILDING_STATES: readonly TaskStatus[] = ACTIVE_STATES.filter(
  (status) => status !== 'verifying',
);

/** States the system may release a claim from (to pending, owner kept): the sources of the `release` edges. */
export const RELEASABLE_STATES: readonly TaskStatus[] = edgesOf('release').map((edge) => edge.from);
