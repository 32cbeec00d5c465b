/**
 * What `gaffer token <slug>` signs: the roster agent's UUID, role and team (agents sign over their
 * UUID, not their slug). The default company is seeded first, so this works before the first start.
 */
import type { Db } from '../../platform/db/client.js';
import { seedDefaultCompany } from './seed.js';
import { AgentsService } from './service.js';

export type TokenSubjectLookup =
  | { found: true; subject: { id: string; role: string; team: string }; slug: string }
  | { found: false; reason: 'unknown' | 'retired' };

export async function rosterTokenSubject(db: Db, idOrSlug: string): Promise<TokenSubjectLookup> {
  await seedDefaultCompany(db);
  const agent = await new AgentsService(db).resolve(idOrSlug);
  if (!agent) return { found: false, reason: 'unknown' };
  if (agent.retiredAt) return { found: false, reason: 'retired' };
  return {
    found: true,
    subject: { id: agent.id, role: agent.role, team: agent.team ?? '' },
    slug: agent.slug,
  };
}
