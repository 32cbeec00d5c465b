/** The answer of every lifecycle rule: allowed (with the resulting status), or refused with a flavor. */
import type { LifecycleAction } from './actions.js';
import type { TaskStatus } from './states.js';

/**
 * `not_authorized`: the role may not do this (or it is another role's queue).
 * `invalid_state`: the action is not possible from the task's current status.
 */
export type RefusalFlavor = 'not_authorized' | 'invalid_state';

export interface Allowed {
  readonly ok: true;
  readonly action: LifecycleAction;
  readonly from: TaskStatus;
  /** The first allowed target (the only one for every action but `unblock`). */
  readonly to: TaskStatus;
  /** Every target the role may reach with this action from `from`. */
  readonly targets: readonly TaskStatus[];
}

export interface Refused {
  readonly ok: false;
  readonly flavor: RefusalFlavor;
  readonly message: string;
}

export type Decision = Allowed | Refused;
