/**
 * The operator maintenance pause: three independent scopes (dispatch, board_programs, engines),
 * drain or kill, stored in the settings store, expiring on their own. Its outside face: the
 * service, `holdFor` (what scheduler loops consult before every pass), `onChange` (every replica
 * hears every pause and resume, through the bus) and the /api/maintenance-pause routes.
 * A scheduler loop declares the scopes that hold it once (`pausableLoop`: its hold and its tags
 * follow); a kill pause interrupts the in-flight passes tagged with its scope on every replica;
 * its effect on running agent processes belongs to the dispatcher, which subscribes with `onChange`.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { Hold, Scheduler } from '../../platform/scheduler/index.js';
import type { SettingsModule } from '../settings/index.js';
import { describePause, type PauseRow, type PauseScope } from './pause-rules.js';
import { registerMaintenancePauseRoutes } from './routes.js';
import { MaintenancePauseService } from './service.js';

export type { MaintenancePauseChanged } from './events.js';
export { type PausableLoop, pausableLoop } from './pausable-loop.js';
export {
  DEFAULT_PAUSE_HOURS,
  describePause,
  effectivePause,
  interruptsInFlight,
  isPaused,
  MAX_PAUSE_HOURS,
  PAUSE_MODES,
  PAUSE_SCOPES,
  type PauseMode,
  type PauseRecord,
  type PauseRow,
  type PauseScope,
  type PauseState,
  pauseExpiry,
} from './pause-rules.js';
export { MaintenancePauseService, type PauseRecordStore, type PauseRequest } from './service.js';

export interface MaintenanceModule extends ModuleFace {
  service: MaintenancePauseService;
  /** Null when none of `scopes` is paused, else a Hold naming the pause; `interrupt` for a kill pause. */
  holdFor(scopes: readonly PauseScope[]): Promise<Hold | null>;
  /**
   * Calls `listener` with the scope's row after every pause and resume, on every replica (the
   * event travels through the bus). Returns an unsubscribe.
   */
  onChange(listener: (row: PauseRow) => void | Promise<void>): () => void;
}

/** What this module is handed besides the platform (settings and scheduler are built first). */
export interface MaintenanceDeps {
  settings: SettingsModule;
  scheduler: Scheduler;
}

export function createMaintenanceModule({ platform, deps }: ModuleInput<MaintenanceDeps>): MaintenanceModule {
  const service = new MaintenancePauseService(
    deps.settings.service,
    platform.clock,
    platform.bus,
    platform.log,
  );
  const onChange: MaintenanceModule['onChange'] = (listener) =>
    platform.bus.subscribe('MAINTENANCE_PAUSE_CHANGED', (event) => listener(event.data));
  const stopInterrupting = onChange((row) => {
    if (row.paused && row.mode === 'kill') deps.scheduler.interrupt(row.scope, describePause(row));
  });
  return {
    service,
    holdFor: (scopes) => service.holdFor(scopes),
    onChange,
    registerRoutes: (app) => registerMaintenancePauseRoutes(app, service),
    stop: stopInterrupting,
  };
}
