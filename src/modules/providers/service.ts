/**
 * Model providers and the routing of agents to them. The API key is sealed with the platform's
 * secret box, bound to the provider's id, and opened only to probe the provider or hand it to an
 * agent process; views say only whether one is set.
 */
import { and, asc, eq } from 'drizzle-orm';
import { createSecretBox, type SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/client.js';
import { isRole } from '../../platform/http/auth/identity.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/http/errors.js';
import {
  createModelClient,
  type ModelClient,
  type ProbeResult,
  type ProviderKind,
  type UsageListener,
} from '../../platform/llm/index.js';
import type { AgentsService } from '../agents/index.js';
import { type RouteEntry, type RouteScope, resolveRoute } from './resolve.js';
import { modelProviders, modelRoutes } from './schema.js';

const KEY_PURPOSE = 'model-provider-api-key';
export const PROVIDER_KINDS = ['openai', 'anthropic', 'gemini'] as const;

export type ProviderRow = typeof modelProviders.$inferSelect;

export interface ProviderInput {
  name: string;
  kind: ProviderKind;
  base_url?: string | null;
  default_model: string;
  enabled?: boolean;
  api_key?: string | null;
}

export type ProviderChanges = Partial<Omit<ProviderInput, 'name'>>;

export interface RouteInput {
  provider: string;
  model?: string | null;
}

export interface RoutingInput {
  global?: RouteInput | null;
  roles?: Record<string, RouteInput | null>;
  agents?: Record<string, RouteInput | null>;
}

/** What an agent runs and why, with the key opened (for the runtime only). */
export interface ResolvedRoute {
  source: RouteScope;
  provider: ProviderRow;
  model: string;
}

export class ProvidersService {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly agents: AgentsService,
    private readonly onUsage?: UsageListener,
  ) {
    this.box = createSecretBox(secret, KEY_PURPOSE);
  }

  list(): Promise<ProviderRow[]> {
    return this.db.select().from(modelProviders).orderBy(asc(modelProviders.name));
  }

  async get(name: string): Promise<ProviderRow> {
    const [row] = await this.db.select().from(modelProviders).where(eq(modelProviders.name, name));
    if (!row) throw notFound(`there is no model provider named ${name}`);
    return row;
  }

  async create(input: ProviderInput): Promise<ProviderRow> {
    const existing = await this.db.select().from(modelProviders).where(eq(modelProviders.name, input.name));
    if (existing.length) throw conflict('provider_exists', `a model provider named ${input.name} exists`);
    const id = crypto.randomUUID();
    const [row] = await this.db
      .insert(modelProviders)
      .values({
        id,
        name: input.name,
        kind: input.kind,
        baseUrl: input.base_url ?? null,
        defaultModel: input.default_model,
        enabled: input.enabled ?? true,
        apiKeyCiphertext: input.api_key ? this.box.seal(input.api_key, id) : null,
      })
      .returning();
    return row!;
  }

  async update(name: string, changes: ProviderChanges): Promise<ProviderRow> {
    const current = await this.get(name);
    const set: Partial<typeof modelProviders.$inferInsert> = { updatedAt: new Date() };
    if (changes.kind !== undefined) set.kind = changes.kind;
    if (changes.base_url !== undefined) set.baseUrl = changes.base_url;
    if (changes.default_model !== undefined) set.defaultModel = changes.default_model;
    if (changes.enabled !== undefined) set.enabled = changes.enabled;
    if (changes.api_key !== undefined) {
      set.apiKeyCiphertext = changes.api_key === null ? null : this.box.seal(changes.api_key, current.id);
    }
    const [row] = await this.db
      .update(modelProviders)
      .set(set)
      .where(eq(modelProviders.id, current.id))
      .returning();
    return row!;
  }

  async remove(name: string): Promise<void> {
    const current = await this.get(name);
    await this.db.delete(modelProviders).where(eq(modelProviders.id, current.id));
  }

  /** The opened API key, or null when none is set. */
  apiKeyOf(provider: ProviderRow): string | null {
    return provider.apiKeyCiphertext ? this.box.open(provider.apiKeyCiphertext, provider.id) : null;
  }

  async routes(): Promise<RouteEntry<ProviderRow>[]> {
    const rows = await this.db
      .select()
      .from(modelRoutes)
      .innerJoin(modelProviders, eq(modelRoutes.providerId, modelProviders.id));
    return rows.map(({ model_routes: route, model_providers: provider }) => ({
      scope: route.scope as RouteScope,
      subject: route.subject,
      provider,
      model: route.model,
    }));
  }

  /**
   * Sets the routes named in `input` (null removes one; absent leaves it). Checks everything before
   * writing: 422 naming the field for an unknown provider, role or agent.
   */
  async putRouting(input: RoutingInput): Promise<void> {
    const providers = new Map((await this.list()).map((row) => [row.name, row]));
    const writes: { scope: RouteScope; subject: string; route: RouteInput | null }[] = [];
    const problems: { field: string; message: string }[] = [];
    const checkProvider = (field: string, route: RouteInput | null) => {
      if (route && !providers.has(route.provider)) {
        problems.push({ field: `${field}.provider`, message: `no model provider named ${route.provider}` });
      }
    };
    if (input.global !== undefined) {
      checkProvider('global', input.global);
      writes.push({ scope: 'global', subject: '', route: input.global });
    }
    for (const [role, route] of Object.entries(input.roles ?? {})) {
      if (!isRole(role)) problems.push({ field: `roles.${role}`, message: `${role} is not a role` });
      checkProvider(`roles.${role}`, route);
      writes.push({ scope: 'role', subject: role, route });
    }
    for (const [ref, route] of Object.entries(input.agents ?? {})) {
      const agent = await this.agents.resolve(ref);
      if (!agent) problems.push({ field: `agents.${ref}`, message: `no agent ${ref} on the roster` });
      checkProvider(`agents.${ref}`, route);
      writes.push({ scope: 'agent', subject: agent?.id ?? ref, route });
    }
    if (problems.length)
      throw unprocessable(problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems);
    await this.db.transaction(async (tx) => {
      for (const { scope, subject, route } of writes) {
        await tx.delete(modelRoutes).where(routeKey(scope, subject));
        if (route) {
          const providerId = providers.get(route.provider)!.id;
          await tx.insert(modelRoutes).values({ scope, subject, providerId, model: route.model ?? null });
        }
      }
    });
  }

  /** Which provider and model the agent runs and why; null when no route applies. */
  async resolveFor(agent: { id: string; role: string }): Promise<ResolvedRoute | null> {
    const route = resolveRoute(agent, await this.routes());
    if (!route) return null;
    return {
      source: route.scope,
      provider: route.provider,
      model: route.model ?? route.provider.defaultModel,
    };
  }

  /** The route an experiment's arm names: that provider, with the model or its default; null when it is gone. */
  async namedRoute(named: { provider: string; model: string | null }): Promise<ResolvedRoute | null> {
    const [provider] = await this.db
      .select()
      .from(modelProviders)
      .where(eq(modelProviders.name, named.provider));
    return provider ? { source: 'agent', provider, model: named.model ?? provider.defaultModel } : null;
  }

  async resolveAgent(
    ref: string,
  ): Promise<{ agent: { id: string; slug: string; role: string }; route: ResolvedRoute | null }> {
    const agent = await this.agents.resolve(ref);
    if (!agent)
      throw unprocessable(`no agent ${ref} on the roster`, [
        { field: 'agent', message: 'not on the roster' },
      ]);
    return { agent, route: await this.resolveFor(agent) };
  }

  /**
   * A model client for whatever runs as `subject` (an agent, or a built-in role such as
   * `secretary` or `prompter`), on its routed provider and model with the usage ledger listening.
   * A 409 `no_model_provider` naming the remediation when no enabled route applies: model-backed
   * routes say so instead of answering something canned.
   */
  async clientFor(subject: { id: string; role: string }, timeoutMs?: number): Promise<ModelClient> {
    const route = await this.resolveFor(subject);
    if (!route?.provider.enabled) throw noModelProvider(subject.role);
    return createModelClient({
      kind: route.provider.kind as ProviderKind,
      name: route.provider.name,
      ...(route.provider.baseUrl ? { baseUrl: route.provider.baseUrl } : {}),
      ...(route.provider.apiKeyCiphertext ? { apiKey: this.apiKeyOf(route.provider)! } : {}),
      model: route.model,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(this.onUsage ? { onUsage: this.onUsage } : {}),
    });
  }

  /** Probes the provider through platform/llm; a failure (401, 429, unreachable) is in the result. */
  async test(name: string, mode: 'models' | 'completion' = 'models'): Promise<ProbeResult> {
    const provider = await this.get(name);
    const client = createModelClient({
      kind: provider.kind as ProviderKind,
      name: provider.name,
      ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
      ...(provider.apiKeyCiphertext ? { apiKey: this.apiKeyOf(provider)! } : {}),
      model: provider.defaultModel,
      timeoutMs: 10_000,
      ...(this.onUsage ? { onUsage: this.onUsage } : {}),
    });
    return client.probe({ mode });
  }
}

const routeKey = (scope: RouteScope, subject: string) =>
  and(eq(modelRoutes.scope, scope), eq(modelRoutes.subject, subject));

/** The 409 every model-backed route answers while no enabled provider is routed for its role. */
export function noModelProvider(role: string): AppError {
  return new AppError(
    409,
    'no_model_provider',
    `no model provider is configured for ${role}`,
    { role },
    'add a provider under /api/providers and route it globally or for this role (PUT /api/providers/routing)',
  );
}
