/**
 * Provider rate-limit parking. A provider that answered 429 or "overloaded" — seen by a domain
 * route's model call, reported by an agent through the gateway, or printed by an agent CLI — is
 * parked until its window ends: the running agents on it are marked waiting (their tasks are left
 * as they are), the dispatcher starts nothing on it, RATE_LIMIT_HIT goes to /ws/system. The probe
 * pass (probe.ts) lifts it again. The state is a table row, so every replica sees it and it
 * survives a restart; each replica marks its own running agents when the events reach it.
 *
 * A provider is named by its key: the agent's routed provider (providers module), else the agent
 * CLI it runs (`claude`, `codex`, the configured GAFFER_AGENT_PROVIDER).
 */
import type { EventBus } from '../../../platform/bus/index.js';
import type { Clock } from '../../../platform/clock.js';
import type { Db } from '../../../platform/db/client.js';
import type { AgentsService } from '../../agents/index.js';
import {
  type ProviderRow,
  type ProvidersService,
  type RouteEntry,
  resolveRoute,
} from '../../providers/index.js';
import type { RuntimeSupervisor } from '../../runtime/index.js';
import { openRunProvider, openRuns } from '../../runtime/index.js';
import type { RateLimitHit, RateLimitLifted, ThrottleKind } from '../events.js';
import { normaliseRetryAfter, resumeAtFor } from './rules.js';
import { entryOf, type RateLimitRow, RateLimitStore } from './store.js';

export interface RateLimitAgent {
  id: string;
  slug: string;
  role: string;
}

export interface RateLimitReport {
  kind: ThrottleKind;
  /** The provider's key when the reporter knows it; else the agent's. */
  provider?: string | null;
  /** The agent that ran into it, if one did. */
  agent?: RateLimitAgent | null;
  /** The agent CLI the reporting run uses (when the report comes from its output). */
  cli?: string | null;
  retryAfterSeconds?: number | null;
}

export interface RateLimitServiceDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  agents: Pick<AgentsService, 'list'>;
  providers: Pick<ProvidersService, 'routes'>;
  supervisor: Pick<RuntimeSupervisor, 'list' | 'markWaiting' | 'markResumed'>;
  /** The agent CLI spawns use when nothing else says (GAFFER_AGENT_PROVIDER). */
  defaultCli: string;
  log?: { warn(details: object, message: string): void };
}

type Routes = RouteEntry<ProviderRow>[];

export class RateLimitService {
  readonly store: RateLimitStore;

  constructor(private readonly deps: RateLimitServiceDeps) {
    this.store = new RateLimitStore(deps.db);
  }

  /** Every parked provider, soonest resume first (the `GET /api/system/rate-limits` entries). */
  async list(): Promise<RateLimitHit[]> {
    return (await this.store.list()).map(entryOf);
  }

  /**
   * Parks the provider (or merges into its episode) and answers the entry. A new episode publishes
   * RATE_LIMIT_HIT; a second hit while parked extends the window and adds agents silently.
   */
  async report(report: RateLimitReport): Promise<RateLimitHit> {
    const routes = await this.deps.providers.routes();
    const provider =
      report.provider?.trim() ||
      (report.agent
        ? this.keyOf(report.agent, routes, report.cli ?? (await this.cliOf(report.agent.id)))
        : null);
    if (!provider) throw new Error('a rate-limit report names neither a provider nor an agent');
    const now = this.deps.clock.now();
    const retryAfterSeconds = normaliseRetryAfter(report.retryAfterSeconds);
    const running = await this.runningAgents(routes);
    const affected = running.filter((agent) => agent.provider === provider).map((agent) => agent.slug);
    if (report.agent) affected.push(report.agent.slug);
    const { row, opened } = await this.store.park({
      provider,
      kind: report.kind,
      at: now,
      resumeAt: resumeAtFor(now, retryAfterSeconds),
      retryAfterSeconds,
      agents: affected,
    });
    const entry = entryOf(row);
    if (opened) await this.deps.bus.publish('RATE_LIMIT_HIT', entry);
    else this.markLocalWaiting(entry);
    return entry;
  }

  /** The agents the dispatcher must not start now, with the parked provider each waits for. */
  async parkedAgents(): Promise<Map<string, string>> {
    const parked = new Map<string, string>();
    const rows = await this.store.list();
    if (rows.length === 0) return parked;
    const providers = new Set(rows.map((row) => row.provider));
    const [routes, roster] = await Promise.all([this.deps.providers.routes(), this.deps.agents.list()]);
    for (const agent of roster) {
      const key = this.keyOf(agent, routes, this.deps.defaultCli);
      if (providers.has(key)) parked.set(agent.id, key);
    }
    const bySlug = new Map(roster.map((agent) => [agent.slug, agent.id]));
    for (const row of rows) {
      for (const slug of row.affectedAgents) {
        const id = bySlug.get(slug);
        if (id && !parked.has(id)) parked.set(id, row.provider);
      }
    }
    return parked;
  }

  /** Publishes the lift of a row just deleted. */
  async announceLift(row: RateLimitRow): Promise<RateLimitLifted> {
    const lifted: RateLimitLifted = {
      provider: row.provider,
      resumed_agents: [...row.affectedAgents],
      lifted_at: this.deps.clock.now().toISOString(),
    };
    await this.deps.bus.publish('RATE_LIMIT_LIFTED', lifted);
    return lifted;
  }

  /** This replica's running agents among the entry's: marked waiting (AGENT_WAITING), once. */
  markLocalWaiting(entry: RateLimitHit): void {
    const slugs = new Set(entry.affected_agents);
    const detail = `rate_limit: provider ${entry.provider} is ${entry.kind.replace('_', ' ')} until ${entry.resume_at}`;
    for (const run of this.deps.supervisor.list()) {
      if (slugs.has(run.agentSlug) && !run.waiting) this.deps.supervisor.markWaiting(run.agentId, detail);
    }
  }

  /** This replica's running agents among the lifted ones that wait: resumed (AGENT_RESUMED). */
  markLocalResumed(lifted: RateLimitLifted): void {
    const slugs = new Set(lifted.resumed_agents);
    for (const run of this.deps.supervisor.list()) {
      if (slugs.has(run.agentSlug) && run.waiting?.detail?.startsWith('rate_limit:')) {
        this.deps.supervisor.markResumed(run.agentId, `rate_limit_lifted: provider ${lifted.provider}`);
      }
    }
  }

  /** The agent's provider key: its routed (enabled) provider, else the agent CLI it runs. */
  private keyOf(agent: { id: string; role: string }, routes: Routes, cli: string): string {
    const route = resolveRoute(agent, routes);
    return route?.provider.enabled ? route.provider.name : cli;
  }

  /** The agent CLI of the agent's open run (on any replica), else the configured one. */
  private async cliOf(agentId: string): Promise<string> {
    return (await openRunProvider(this.deps.db, agentId)) ?? this.deps.defaultCli;
  }

  /** Agents with an open run on any replica, with their provider key. */
  private async runningAgents(routes: Routes): Promise<{ slug: string; provider: string }[]> {
    const [runs, roster] = await Promise.all([openRuns(this.deps.db), this.deps.agents.list()]);
    const byId = new Map(roster.map((agent) => [agent.id, agent]));
    return runs.flatMap((run) => {
      const agent = byId.get(run.agentId);
      return agent ? [{ slug: agent.slug, provider: this.keyOf(agent, routes, run.provider) }] : [];
    });
  }
}
