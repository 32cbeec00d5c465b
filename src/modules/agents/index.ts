/** The roster: agents, their roles, teams and current state; the default company seeded on first start. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { seedDefaultCompany } from './seed.js';
import { AgentsService } from './service.js';

export { DEFAULT_COMPANY, type RosterEntry, rosterMember } from './roster.js';
export { agents } from './schema.js';
export type { Agent } from './service.js';
export { AgentsService };

export interface AgentsModule {
  service: AgentsService;
  registerRoutes(app: FastifyInstance): void;
}

export async function createAgentsModule(platform: Platform): Promise<AgentsModule> {
  await seedDefaultCompany(platform.database.db);
  const service = new AgentsService(platform.database.db);
  return {
    service,
    registerRoutes() {},
  };
}
