/** `createModelClient`: the adapter for a provider's kind, with Gaffer's defaults filled in. */
import { ANTHROPIC_DEFAULT_BASE_URL, AnthropicModelClient } from './anthropic.js';
import { GEMINI_DEFAULT_BASE_URL, GeminiModelClient } from './gemini.js';
import { OPENAI_DEFAULT_BASE_URL, OpenAiModelClient } from './openai.js';
import { DEFAULT_TIMEOUT_MS, type ModelClient, type ModelClientConfig } from './types.js';

export function createModelClient(config: ModelClientConfig): ModelClient {
  if (!config.model) throw new TypeError('a model client needs a model');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new TypeError('timeoutMs must be a positive integer');
  const common = {
    provider: config.name ?? config.kind,
    apiKey: config.apiKey,
    model: config.model,
    timeoutMs,
    ...(config.headers ? { headers: config.headers } : {}),
    ...(config.onUsage ? { onUsage: config.onUsage } : {}),
  };
  switch (config.kind) {
    case 'openai':
      return new OpenAiModelClient({ ...common, baseUrl: config.baseUrl || OPENAI_DEFAULT_BASE_URL });
    case 'anthropic':
      return new AnthropicModelClient({ ...common, baseUrl: config.baseUrl || ANTHROPIC_DEFAULT_BASE_URL });
    case 'gemini':
      return new GeminiModelClient({ ...common, baseUrl: config.baseUrl || GEMINI_DEFAULT_BASE_URL });
    default:
      throw new TypeError(`unknown model provider kind: ${String((config as { kind: unknown }).kind)}`);
  }
}
