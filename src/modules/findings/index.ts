/** The findings ledger of review rounds on a task. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { FindingsDeps } from '../registry.js';
import { FindingsService } from './service.js';

export { FindingsService };

export interface FindingsModule {
  service: FindingsService;
  registerRoutes(app: FastifyInstance): void;
}

export function createFindingsModule(platform: Platform, _deps: FindingsDeps): FindingsModule {
  return { service: new FindingsService(platform), registerRoutes() {} };
}
