import type { ProviderKind } from '../../platform/llm/index.js';
import type { RouteEntry } from './resolve.js';
import type { ProviderRow } from './service.js';

/** A provider as the API shows it: whether a key is set, never the key. */
export function providerView(row: ProviderRow) {
  return {
    name: row.name,
    kind: row.kind as ProviderKind,
    base_url: row.baseUrl,
    default_model: row.defaultModel,
    enabled: row.enabled,
    api_key_set: row.apiKeyCiphertext !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function routingView(routes: RouteEntry<ProviderRow>[]) {
  const out = (route: RouteEntry<ProviderRow>) => ({ provider: route.provider.name, model: route.model });
  const global = routes.find((route) => route.scope === 'global');
  return {
    global: global ? out(global) : null,
    roles: Object.fromEntries(routes.filter((r) => r.scope === 'role').map((r) => [r.subject, out(r)])),
    agents: Object.fromEntries(routes.filter((r) => r.scope === 'agent').map((r) => [r.subject, out(r)])),
  };
}
