/**
 * The acting agent behind a request: the caller's proven identity (token or panel session)
 * resolved against the roster, by UUID or slug. An identity naming no agent, a retired one, or an
 * agent of another role than the proof says is refused (403).
 */
import type { Identity } from '../../platform/http/auth/identity.js';
import { AppError } from '../../platform/http/errors.js';
import type { AgentsService } from '../agents/index.js';
import type { Actor } from './types.js';

export async function actorFromIdentity(agents: AgentsService, identity: Identity): Promise<Actor> {
  const agent = await agents.resolve(identity.id);
  if (!agent || agent.retiredAt) {
    throw new AppError(403, 'unknown_agent', `"${identity.id}" is not an agent of the roster`);
  }
  if (agent.role !== identity.role) {
    throw new AppError(
      403,
      'role_mismatch',
      `agent ${agent.slug} is a ${agent.role}, not a ${identity.role}`,
    );
  }
  return { id: agent.id, slug: agent.slug, role: agent.role, team: agent.team ?? null };
}
