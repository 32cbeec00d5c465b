/** The roster: agents, their roles, teams and current state; the default company seeded on first start. */

import type { Identity } from '../../platform/http/auth/identity.js';
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
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

export { seedDefaultCompany } from './seed.js';
export type { Agent, AgentActor, AgentChanges, AgentFilter, NewAgent } from './service.js';
export { rosterTokenSubject, type TokenSubjectLookup } from './token-subject.js';
export { AgentsService };

export interface AgentsModule extends ModuleFace {
  service: AgentsService;
  /**
   * For authentication, after the token or session has proven `identity`: throws a 401
   * `agent_retired` AppError when it names a retired agent (by UUID or slug), so a retired agent's
   * tokens stop working. Costs no query on most requests (cached retired set, 5 s TTL).
   */
  refuseRetired(identity: Pick<Identity, 'id'>): Promise<void>;
}

export async function createAgentsModule({ platform }: ModuleInput): Promise<AgentsModule> {
  await seedDefaultCompany(platform.database.db);
  const service = new AgentsService(platform.database.db, platform.clock);
  return {
    service,
    refuseRetired: (identity) => refuseRetiredIdentity(service.retired, identity),
    registerRoutes: (app) => registerAgentsRoutes(app, service),
  };
}
