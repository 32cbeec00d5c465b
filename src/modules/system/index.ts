/**
 * The system module's outside face: the orchestrator's own state for the CEO (`/api/orchestrator`)
 * the doctor (`/api/system/doctor`, doctor/), backups of the running store (`/api/system/backup`,
 * scheduled ones `system.backup` and `/api/system/backups`, the running store's move to PostgreSQL
 * `/api/system/store/move`; backup/) and provider rate-limit parking (`/api/system/rate-limits`, RATE_LIMIT_HIT / RATE_LIMIT_LIFTED,
 * the `system.rate-limit-probe` loop; rate-limits/, wired in rate-limits/wiring.ts).
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import { registerStoreMoveRoute } from './backup/move-route.js';
import { registerBackupRoutes } from './backup/routes.js';
import { backupSchedule, registerBackupLoop } from './backup/schedule.js';
import type { SystemDeps } from './deps.js';
import { registerDoctorRoutes } from './doctor/routes.js';
import { registerRateLimitRoutes } from './rate-limits/routes.js';
import type { RateLimitService } from './rate-limits/service.js';
import { wireRateLimitParking } from './rate-limits/wiring.js';
import { registerOrchestratorRoutes } from './routes.js';

export { BACKUP_LOOP } from './backup/schedule.js';
export type { SystemDeps } from './deps.js';
export { type DoctorReport, machineFindings, reportOf } from './doctor/index.js';
export type { RateLimitHit, RateLimitLifted, ThrottleKind } from './events.js';
export { RATE_LIMIT_PROBE_LOOP } from './rate-limits/probe.js';
export * as rateLimitRules from './rate-limits/rules.js';
export type { RateLimitAgent, RateLimitReport, RateLimitService } from './rate-limits/service.js';

export interface SystemModule extends ModuleFace {
  rateLimits: RateLimitService;
}

export function createSystemModule({ platform, deps }: ModuleInput<SystemDeps>): SystemModule {
  const parking = wireRateLimitParking(platform, deps);
  const backups = backupSchedule(platform);
  registerBackupLoop(deps.scheduler, backups);
  return {
    rateLimits: parking.service,
    registerRoutes(app) {
      registerOrchestratorRoutes(app, deps.scheduler, platform.clock);
      registerRateLimitRoutes(app, parking.service);
      registerDoctorRoutes(app, platform, deps.providers.service);
      registerBackupRoutes(app, platform, backups);
      registerStoreMoveRoute(app, platform);
      // A domain route whose model call was throttled answers 429 (HTTP conventions) and parks the provider.
      app.addHook('onError', async (_request, _reply, error) => parking.reportThrottled(error));
    },
    stop: () => parking.stop(),
  };
}
