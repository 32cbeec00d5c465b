/** The events the maintenance pause raises (declared on the platform bus's event map). */
import type { PauseMode, PauseScope } from './pause-rules.js';

/** The state of one maintenance-pause scope, as `GET /api/maintenance-pause` lists it. */
export interface MaintenancePauseChanged {
  scope: PauseScope;
  paused: boolean;
  mode: PauseMode | null;
  /** Identity id of whoever set the pause (the CEO). */
  paused_by: string | null;
  reason: string | null;
  /** ISO-8601 UTC. */
  paused_at: string | null;
  expires_at: string | null;
  /** First failed read of the stored state since the last good one on the publishing replica. */
  read_degraded_since: string | null;
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /** An operator maintenance pause was set or lifted (/ws/system): the scope's row as GET shows it. */
    MAINTENANCE_PAUSE_CHANGED: MaintenancePauseChanged;
  }
}
