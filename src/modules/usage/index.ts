/**
 * The usage ledger's outside face: the table of usage records, the service that records usage and
 * sums it per task and per project-month (the budget sweep's figures), and budget-month helpers.
 * No routes yet: the runtime feeds it, the dispatcher's budget sweep reads it.
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { UsageService } from './service.js';

export type { UsageSnapshot } from './events.js';
export { type MonthWindow, monthKey, monthWindow } from './month.js';
export { type RunWindow, runSpend } from './run-spend.js';
export { usageRecords } from './schema.js';
export { type UsageInput, type UsageRow, UsageService } from './service.js';

export interface UsageModule {
  service: UsageService;
  registerRoutes(app: FastifyInstance): void;
}

export function createUsageModule(platform: Platform): UsageModule {
  const service = new UsageService(platform.database.db, platform.clock);
  return { service, registerRoutes: () => {} };
}
