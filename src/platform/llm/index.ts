/**
 * Model APIs behind one provider-neutral client: `createModelClient({kind, baseUrl, apiKey, model,
 * timeoutMs})` gives a ModelClient (complete, stream, probe) over the official OpenAI or Anthropic
 * SDK, or the Gemini API over fetch. Failures are one error family: ModelThrottledError (a ProviderRateLimitError: HTTP 429 with
 * Retry-After through the conventions) and ModelCallError (an AppError).
 */

export {
  createEmbeddingClient,
  type EmbeddingClient,
  type EmbeddingClientConfig,
  type EmbeddingResult,
} from './embeddings.js';
export {
  type CallFailureKind,
  classifyHttpFailure,
  isModelError,
  ModelCallError,
  type ModelError,
  type ModelErrorKind,
  ModelThrottledError,
  type ThrottleKind,
} from './errors.js';
export { createModelClient } from './factory.js';
export { retryAfterSeconds } from './retry-after.js';
export {
  type CallOptions,
  type ContentPart,
  DEFAULT_MAX_TOKENS,
  DEFAULT_TIMEOUT_MS,
  type ModelCallUsage,
  type ModelClient,
  type ModelClientConfig,
  type ModelMessage,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type ModelTool,
  type ModelUsage,
  type ProbeOptions,
  type ProbeResult,
  type ProviderKind,
  type StopReason,
  type ToolCall,
  type UsageListener,
} from './types.js';
export { addUsage, ZERO_USAGE } from './usage.js';
