/**
 * Board programs: the runner that drives registered programs (the three autonomous engines each
 * register one) on the scheduler, held by the `board_programs` and `engines` pause scopes, each
 * pass recorded as a cycle; and the /api/board-programs routes. Nothing registers a program here.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { MaintenanceModule } from '../maintenance/index.js';
import { registerBoardProgramRoutes } from './routes.js';
import { BoardProgramRunner } from './runner.js';

export { type BoardProgram, CYCLE_BOUNDS, type CycleContext, HOLDING_SCOPES, loopName } from './program.js';
export type { ProgramStatus } from './runner.js';
export type { CycleOutcome, CycleTrigger } from './schema.js';
export { BoardProgramRunner };

export interface BoardProgramsModule extends ModuleFace {
  runner: BoardProgramRunner;
}

/** What this module is handed: the outside faces it uses (settings and scheduler are built first). */
export interface BoardProgramsDeps {
  scheduler: Scheduler;
  maintenance: MaintenanceModule;
}

export function createBoardProgramsModule({
  platform,
  deps,
}: ModuleInput<BoardProgramsDeps>): BoardProgramsModule {
  const runner = new BoardProgramRunner({
    db: platform.database.db,
    clock: platform.clock,
    scheduler: deps.scheduler,
    holdFor: (scopes) => deps.maintenance.holdFor(scopes),
  });
  return { runner, registerRoutes: (app) => registerBoardProgramRoutes(app, runner) };
}
