/** The roster: agents, their roles, teams and current state; the default company seeded on first start. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { Identity } from '../../platform/http/auth/identity.js';
import { refuseRetiredIdentity } from './retired-agents.js';
import { registerAgentsRoutes } from './routes.js';
import { seedDefaultCompany } from './seed.js';
import { AgentsService } from './service.js';

export { agentLeavesTask, agentTakesTask, claimantJoin } from './claim-sql.js';
export { type AgentRef, activeAgentsNamed, agentRefs, agentSlugOf, findAgentRef } from './reads.js';
export { DEFAULT_COMPANY, type RosterEntry, rosterMember } from './roster.js';
export {
  AGENT_STATUSES,
  type AgentStatus,
  DELIVERY_CELLS,
  type DeliveryCell,
  escalationChain,
  isDeliveryCell,
} from './rules.js';
export { agents } from './schema.js';
export { seedDefaultCompany } from './seed.js';
export type { Agent, AgentActor, AgentChanges, AgentFilter, NewAgent } from './service.js';
export { rosterTokenSubject, type TokenSubjectLookup } from './token-subject.js';
export { AgentsService };

export interface AgentsModule {
  service: AgentsService;
  /**
   * For authentication, after the token or session has proven `identity`: throws a 401
   * `agent_retired` AppError when it names a retired agent (by UUID or slug), so a retired agent's
   * tokens stop working. Costs no query on most requests (cached retired set, 5 s TTL).
   */
  refuseRetired(identity: Pick<Identity, 'id'>): Promise<void>;
  registerRoutes(app: FastifyInstance): void;
}

export async function createAgentsModule(platform: Platform): Promise<AgentsModule> {
  await seedDefaultCompany(platform.database.db);
  const service = new AgentsService(platform.database.db, platform.clock);
  return {
    service,
    refuseRetired: (identity) => refuseRetiredIdentity(service.retired, identity),
    registerRoutes: (app) => registerAgentsRoutes(app, service),
  };
}
