/**
 * Named reads of the roster for other modules, on the handle they pass (their transaction, or the
 * database): who an id or slug is, and which active agents a list of keys names. Other modules
 * call these instead of querying the agents table.
 */
import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/bus/index.js';
import type { Db } from '../../platform/db/client.js';
import type { Role } from '../../platform/http/auth/identity.js';
import { isUuid } from '../../platform/ids.js';
import { agents } from './schema.js';

type Handle = Db | Tx;

/** The roster facts another module needs to address an agent. */
export interface AgentRef {
  id: string;
  slug: string;
  role: Role;
  team: string | null;
}

const refColumns = { id: agents.id, slug: agents.slug, role: agents.role, team: agents.team };

/** Roster facts of the given agents (retired ones included), keyed by id. */
export async function agentRefs(db: Handle, ids: readonly string[]): Promise<Map<string, AgentRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select(refColumns).from(agents).where(inArray(agents.id, unique));
  return new Map(rows.map((row) => [row.id, row as AgentRef]));
}

/** One agent by UUID or slug (case-insensitive), retired or not; null when the roster has none. */
export async function findAgentRef(db: Handle, idOrSlug: string): Promise<AgentRef | null> {
  const key = idOrSlug.trim().toLowerCase();
  const [row] = await db
    .select(refColumns)
    .from(agents)
    .where(isUuid(key) ? eq(agents.id, key) : eq(agents.slug, key))
    .limit(1);
  return (row as AgentRef | undefined) ?? null;
}

/** The active (not retired) agents whose id or slug is among `keys` (lower-case), in one query. */
export async function activeAgentsNamed(
  db: Handle,
  keys: readonly string[],
): Promise<{ id: string; slug: string }[]> {
  const ids = keys.filter(isUuid);
  const slugs = keys.filter((key) => !isUuid(key));
  const conditions = [
    ...(ids.length ? [inArray(agents.id, ids)] : []),
    ...(slugs.length ? [inArray(agents.slug, slugs)] : []),
  ];
  if (conditions.length === 0) return [];
  return db
    .select({ id: agents.id, slug: agents.slug })
    .from(agents)
    .where(and(isNull(agents.retiredAt), or(...conditions)));
}

/**
 * The slug of the agent whose id `agentId` yields, as a scalar subquery for the caller's own
 * statement (null when there is no such agent): one statement, no join on agents.
 */
export function agentSlugOf(agentId: SQL): SQL<string | null> {
  return sql<string | null>`(select ${agents.slug} from ${agents} where ${agents.id} = ${agentId})`;
}
