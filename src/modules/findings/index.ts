/** The findings ledger of review rounds on a task. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { TasksModule } from '../tasks/index.js';
import { registerFindingsRoutes } from './routes.js';
import { FindingsService } from './service.js';

export { type FindingChange, findingChangesSince } from './changes.js';
export {
  type AddressRef,
  canWaive,
  FINDING_ORIGINS,
  FINDING_SEVERITIES,
  FINDING_STATUSES,
  type FindingInput,
  type FindingOrigin,
  type FindingSeverity,
  type FindingStatus,
  parseFindingRef,
  renderFinding,
} from './rules.js';
export type { AddressResult, Finding, FindingsLedger, OriginSummary } from './service.js';
export { findingsOnTasks, type TaskFinding } from './task-findings.js';
export { FindingsService };

export interface FindingsModule extends ModuleFace {
  service: FindingsService;
}

/** What this module is handed: the outside faces of the modules it uses. */
export interface FindingsDeps {
  tasks: TasksModule;
}

export function createFindingsModule({ platform }: ModuleInput<FindingsDeps>): FindingsModule {
  const service = new FindingsService(platform);
  return { service, registerRoutes: (app) => registerFindingsRoutes(app, service) };
}
