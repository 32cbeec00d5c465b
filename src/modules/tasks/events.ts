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
     * change committed. It wakes the dispatcher, and /ws/system carries it so the panel's inbox,
     * task lists and kanban update live (ids and states only, no task content).
     */
    TASK_CHANGED: TaskChanged;
  }
}
