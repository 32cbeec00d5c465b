/**
 * Reads and changes the roster: list and look up agents (by UUID or slug), add, edit and retire
 * them, record their runtime state, and answer the org questions other modules ask (who is the
 * cell PM, the main PM, whom does this agent escalate to). Identities in tokens may name an agent
 * by UUID or by slug.
 *
 * The hot roster reads — an agent's identity facts (`identify`, `actorOf`: every gateway call) and
 * the agents of a role (`byRole` and the org helpers on it) — are cached for
 * `ROSTER_CACHE_TTL_MS`: an add, edit or retire through this service drops the cache at once, and
 * another replica's edit is seen within the TTL (as the retired set of authentication is).
 * Runtime state (status, current task) is not part of an identity, and may lag in `byRole`'s rows.
 */

import { and, asc, eq, isNull, type SQL } from 'drizzle-orm';
import { type Clock, systemClock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { Identity, Role, Team } from '../../platform/http/auth/identity.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { RetiredAgents } from './retired-agents.js';
import { ROSTER_CACHE_TTL_MS, RosterCache } from './roster-cache.js';
import {
  type AgentStatus,
  escalationChain,
  isProtectedRole,
  roleTeamProblems,
  slugProblems,
} from './rules.js';
import { agents } from './schema.js';

export type AgentRow = typeof agents.$inferSelect;
export interface Agent extends Omit<AgentRow, 'role' | 'team'> {
  role: Role;
  team: Team | null;
}

export interface AgentFilter {
  role?: Role | undefined;
  team?: Team | undefined;
  status?: AgentStatus | undefined;
  /** Retired agents are left out unless asked for. */
  includeRetired?: boolean | undefined;
}

/**
 * The acting agent behind a proven identity: who calls a route that acts on the roster's behalf
 * (tasks, the gateway). Plain data, so other modules need no agents row type.
 */
export interface AgentActor {
  readonly id: string;
  readonly slug: string;
  readonly role: Role;
  /** The agent's team (null for org-wide agents). */
  readonly team: string | null;
}

export interface NewAgent {
  slug: string;
  name: string;
  role: Role;
  team: Team | null;
  model?: string | null | undefined;
  description?: string | undefined;
  capabilities?: string[] | undefined;
}

/** Fields an edit may change; absent fields stay as they are. */
export interface AgentChanges {
  name?: string | undefined;
  role?: Role | undefined;
  team?: Team | null | undefined;
  model?: string | null | undefined;
  description?: string | undefined;
  capabilities?: string[] | undefined;
}

/** The facts that identify an agent and change only through an add, edit or retire. */
export interface AgentIdentity {
  readonly id: string;
  readonly slug: string;
  readonly role: Role;
  readonly team: Team | null;
  readonly retiredAt: Date | null;
}

const byKey = (key: string) => (isUuid(key) ? eq(agents.id, key) : eq(agents.slug, key));
const identityColumns = {
  id: agents.id,
  slug: agents.slug,
  role: agents.role,
  team: agents.team,
  retiredAt: agents.retiredAt,
};
const unique = (values: string[]) => [...new Set(values.map((v) => v.trim()).filter(Boolean))];

export class AgentsService {
  /** Retired identities, for authentication to refuse. */
  readonly retired: RetiredAgents;

  private readonly identities: RosterCache<AgentIdentity | null>;
  private readonly roles: RosterCache<Agent[]>;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
    cacheTtlMs = ROSTER_CACHE_TTL_MS,
  ) {
    this.retired = new RetiredAgents(db);
    this.identities = new RosterCache(cacheTtlMs, Date.now);
    this.roles = new RosterCache(cacheTtlMs, Date.now);
  }

  /** After an add, edit or retire: the cached roster reads are dropped. */
  private rosterChanged(): void {
    this.identities.clear();
    this.roles.clear();
  }

  /** The agent a UUID or slug names, retired ones included; null when there is none. */
  async resolve(idOrSlug: string): Promise<Agent | null> {
    const [row] = await this.db.select().from(agents).where(byKey(idOrSlug.trim().toLowerCase())).limit(1);
    return (row as Agent | undefined) ?? null;
  }

  /** The identity facts of the agent a UUID or slug names, retired ones included (cached); null when none. */
  identify(idOrSlug: string): Promise<AgentIdentity | null> {
    const key = idOrSlug.trim().toLowerCase();
    return this.identities.get(
      key,
      async () => {
        const [row] = await this.db.select(identityColumns).from(agents).where(byKey(key)).limit(1);
        return (row as AgentIdentity | undefined) ?? null;
      },
      (found) => found !== null,
    );
  }

  /**
   * The roster agent behind a proven identity (token or panel session), by UUID or slug. 403
   * `unknown_agent` when it names no agent or a retired one; 403 `role_mismatch` when the agent's
   * role is not the one the proof carries. The one mapping every module uses.
   */
  async actorOf(identity: Pick<Identity, 'id' | 'role'>): Promise<AgentActor> {
    const agent = await this.identify(identity.id);
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

  /** Like resolve, but a missing agent is a 404. */
  async get(idOrSlug: string): Promise<Agent> {
    const agent = await this.resolve(idOrSlug);
    if (!agent) throw notFound(`there is no agent "${idOrSlug}"`);
    return agent;
  }

  async list(filter: AgentFilter = {}): Promise<Agent[]> {
    const conditions: SQL[] = [];
    if (filter.role) conditions.push(eq(agents.role, filter.role));
    if (filter.team) conditions.push(eq(agents.team, filter.team));
    if (filter.status) conditions.push(eq(agents.status, filter.status));
    if (!filter.includeRetired) conditions.push(isNull(agents.retiredAt));
    const rows = await this.db
      .select()
      .from(agents)
      .where(and(...conditions))
      .orderBy(asc(agents.slug));
    return rows as Agent[];
  }

  /** Adds an agent (the API allows the CEO only). 409 `slug_taken`, 422 on a role/team that does not fit. */
  async create(input: NewAgent): Promise<Agent> {
    const slug = input.slug.trim().toLowerCase();
    const problems = [...slugProblems(slug), ...roleTeamProblems(input.role, input.team)];
    if (problems.length > 0) throw unprocessable('the agent is invalid', problems);
    if (await this.resolve(slug)) throw slugTaken(slug);
    const now = this.clock.now();
    try {
      const [row] = await this.db
        .insert(agents)
        .values({
          slug,
          name: input.name.trim(),
          role: input.role,
          team: input.team,
          model: input.model ?? null,
          description: input.description ?? '',
          capabilities: unique(input.capabilities ?? []),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      this.rosterChanged();
      return row as Agent;
    } catch (error) {
      if (isUniqueViolation(error)) throw slugTaken(slug);
      throw error;
    }
  }

  /** Edits an agent. Retired agents are history and stay as they were (409 `agent_retired`). */
  async update(idOrSlug: string, changes: AgentChanges): Promise<Agent> {
    const agent = await this.get(idOrSlug);
    if (agent.retiredAt) throw new AppError(409, 'agent_retired', `agent ${agent.slug} is retired`);
    const role = changes.role ?? agent.role;
    const team = changes.team === undefined ? agent.team : changes.team;
    const problems = roleTeamProblems(role, team, agent);
    if (problems.length > 0) throw unprocessable('the change does not fit this agent', problems);
    const [row] = await this.db
      .update(agents)
      .set({
        ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.model !== undefined ? { model: changes.model } : {}),
        ...(changes.capabilities !== undefined ? { capabilities: unique(changes.capabilities) } : {}),
        role,
        team,
        updatedAt: this.clock.now(),
      })
      .where(eq(agents.id, agent.id))
      .returning();
    this.rosterChanged();
    return row as Agent;
  }

  /**
   * Retires an agent: it keeps its history (tasks and events still name it), leaves the default
   * lists, goes offline, and its tokens stop working. The CEO and the system agent cannot be retired.
   */
  async retire(idOrSlug: string): Promise<Agent> {
    const agent = await this.get(idOrSlug);
    if (isProtectedRole(agent.role)) {
      throw new AppError(409, 'agent_protected', `the ${agent.role} agent cannot be retired`);
    }
    if (agent.retiredAt) throw new AppError(409, 'already_retired', `agent ${agent.slug} is already retired`);
    const now = this.clock.now();
    const [row] = await this.db
      .update(agents)
      .set({ retiredAt: now, status: 'offline', currentTaskId: null, updatedAt: now })
      .where(and(eq(agents.id, agent.id), isNull(agents.retiredAt)))
      .returning();
    this.retired.invalidate();
    this.rosterChanged();
    if (!row) throw new AppError(409, 'already_retired', `agent ${agent.slug} is already retired`);
    return row as Agent;
  }

  /**
   * Records an agent's runtime state: `active` with the task it claimed, `idle` or `offline`
   * without one. For the claim and release paths; pass a transaction as `db` to join it.
   */
  async recordState(
    agentId: string,
    state: { status: AgentStatus; currentTaskId: string | null },
    db: Db = this.db,
  ): Promise<void> {
    await db
      .update(agents)
      .set({ status: state.status, currentTaskId: state.currentTaskId, updatedAt: this.clock.now() })
      .where(eq(agents.id, agentId));
  }

  /** Active (not retired) agents with `role`, in `team` when given, seeded ones first (cached). */
  byRole(role: Role, team?: Team | null): Promise<Agent[]> {
    return this.roles.get(`${role}:${team ?? ''}`, async () => {
      const conditions = [eq(agents.role, role), isNull(agents.retiredAt)];
      if (team) conditions.push(eq(agents.team, team));
      const rows = await this.db
        .select()
        .from(agents)
        .where(and(...conditions))
        .orderBy(asc(agents.createdAt), asc(agents.slug));
      return rows as Agent[];
    });
  }

  /** The PM of a delivery cell, or null when the post is vacant. */
  async cellPm(team: Team): Promise<Agent | null> {
    return (await this.byRole('cell_pm', team))[0] ?? null;
  }

  /** The main PM, or null when the post is vacant. */
  async mainPm(): Promise<Agent | null> {
    return (await this.byRole('main_pm'))[0] ?? null;
  }

  /**
   * Whom `agent` escalates to when blocked (reference A §1.4): the nearest active holder along its
   * role's chain, skipping vacant posts; null for PR reviewers, the CEO and the system agent.
   */
  async escalationTarget(agent: Pick<Agent, 'id' | 'role' | 'team'>): Promise<Agent | null> {
    for (const step of escalationChain(agent.role)) {
      if (step.sameCell && !agent.team) continue;
      const candidates = await this.byRole(step.role, step.sameCell ? agent.team : undefined);
      const target = candidates.find((candidate) => candidate.id !== agent.id);
      if (target) return target;
    }
    return null;
  }
}

const slugTaken = (slug: string) => conflict('slug_taken', `an agent with slug "${slug}" already exists`);
