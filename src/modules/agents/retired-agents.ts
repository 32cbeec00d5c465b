/**
 * Which identities belong to retired agents, for authentication to refuse them on every request.
 * The set of retired ids and slugs is read at most once per `ttlMs` (a retire in this process
 * clears it at once; another replica's retire is seen within `ttlMs`), so the check costs no query
 * on most requests.
 */
import { isNotNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/http/errors.js';
import { agents } from './schema.js';

export const RETIRED_CACHE_TTL_MS = 5_000;

export class RetiredAgents {
  private keys: Set<string> | null = null;
  private loadedAt = 0;
  private loading: Promise<Set<string>> | null = null;
  /** Bumped by invalidate(), so a read that started before a retire is not cached. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly ttlMs = RETIRED_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when `idOrSlug` names a retired agent. Unknown identities are not retired. */
  async has(idOrSlug: string): Promise<boolean> {
    return (await this.current()).has(idOrSlug.trim().toLowerCase());
  }

  /** Forget the cached set (after a retire), so the next check reads the table. */
  invalidate(): void {
    this.keys = null;
    this.loading = null;
    this.generation++;
  }

  private async current(): Promise<Set<string>> {
    if (this.keys && this.now() - this.loadedAt < this.ttlMs) return this.keys;
    if (!this.loading) {
      const loading = this.load().finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  private async load(): Promise<Set<string>> {
    const startedAt = this.now();
    const generation = this.generation;
    const rows = await this.db
      .select({ id: agents.id, slug: agents.slug })
      .from(agents)
      .where(isNotNull(agents.retiredAt));
    const keys = new Set(rows.flatMap((row) => [row.id.toLowerCase(), row.slug.toLowerCase()]));
    if (generation === this.generation) {
      this.keys = keys;
      this.loadedAt = startedAt;
    }
    return keys;
  }
}

/**
 * The authentication hook: refuses (401 `agent_retired`) an identity that names a retired agent,
 * by UUID or slug. Identities the roster does not know pass; their tokens are checked as before.
 */
export async function refuseRetiredIdentity(retired: RetiredAgents, identity: { id: string }): Promise<void> {
  if (await retired.has(identity.id)) {
    throw new AppError(401, 'agent_retired', 'this agent is retired; its tokens no longer work');
  }
}
