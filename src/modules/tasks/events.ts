/** The events the tasks module raises (declared on the platform bus's event map). */

export interface TaskChanged {
  task_id: string;
  status: string;
  assigned_to: string | null;
  change: string;
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /**
     * A task was opened or changed (claim, transition, edit, reassignment...), published after the
     * change committed. Internal: it wakes the dispatcher; the streams do not carry it.
     */
    TASK_CHANGED: TaskChanged;
  }
}
