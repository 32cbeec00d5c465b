/**
 * Which embedding model makes the vectors: the `embedding_model` setting names the model (empty:
 * no embeddings, full-text only), served by the provider routed for the built-in `system` role
 * (its own route, else the global one; PUT /api/providers/routing). That provider must be an
 * enabled OpenAI-compatible one: the Anthropic API has no embeddings.
 */
import { createEmbeddingClient, type EmbeddingClient } from '../../platform/llm/embeddings.js';
import type { ProvidersService } from '../providers/index.js';

/** The identity the index embeds as: the routing of the built-in `system` role applies. */
export const EMBEDDING_SUBJECT = { id: 'optimal-indexer', role: 'system' } as const;

export type EmbedderResolution =
  | { configured: true; client: EmbeddingClient; model: string; provider: string }
  | { configured: false; model: string | null; reason: string };

export interface EmbedderDeps {
  providers: Pick<ProvidersService, 'resolveFor' | 'apiKeyOf'>;
  /** The `embedding_model` setting. */
  embeddingModel: () => Promise<string>;
}

export async function resolveEmbedder(deps: EmbedderDeps, timeoutMs = 30_000): Promise<EmbedderResolution> {
  const model = (await deps.embeddingModel()).trim();
  if (!model) return { configured: false, model: null, reason: 'the embedding_model setting is empty' };
  const route = await deps.providers.resolveFor(EMBEDDING_SUBJECT);
  if (!route?.provider.enabled)
    return { configured: false, model, reason: 'no enabled model provider is routed for the system role' };
  if (route.provider.kind !== 'openai')
    return {
      configured: false,
      model,
      reason: `provider ${route.provider.name} is ${route.provider.kind}, which has no embeddings API`,
    };
  const apiKey = deps.providers.apiKeyOf(route.provider);
  const client = createEmbeddingClient({
    kind: 'openai',
    name: route.provider.name,
    ...(route.provider.baseUrl ? { baseUrl: route.provider.baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    model,
    timeoutMs,
  });
  return { configured: true, client, model, provider: route.provider.name };
}
