/**
 * The acting agent behind a request: the caller's proven identity (token or panel session)
 * resolved against the roster by the agents module's one mapping (`actorOf`): an identity naming
 * no agent, a retired one, or an agent of another role than the proof says is refused (403).
 */
import type { Identity } from '../../platform/http/auth/identity.js';
import type { AgentsService } from '../agents/index.js';
import type { Actor } from './types.js';

export const actorFromIdentity = (agents: AgentsService, identity: Identity): Promise<Actor> =>
  agents.actorOf(identity);
