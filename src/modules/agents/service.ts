/** Reads and changes the roster. Identities in tokens may name an agent by UUID or by slug. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Role } from '../../platform/http/auth/identity.js';
import { agents } from './schema.js';

export type AgentRow = typeof agents.$inferSelect;
export interface Agent extends Omit<AgentRow, 'role'> {
  role: Role;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class AgentsService {
  constructor(private readonly db: Db) {}

  /** The agent a UUID or slug names, retired ones included; null when there is none. */
  async resolve(idOrSlug: string): Promise<Agent | null> {
    const key = idOrSlug.trim().toLowerCase();
    const [row] = await this.db
      .select()
      .from(agents)
      .where(UUID.test(key) ? eq(agents.id, key) : eq(agents.slug, key))
      .limit(1);
    return (row as Agent | undefined) ?? null;
  }
}
