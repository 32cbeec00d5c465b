/**
 * The provider-neutral face of a model API: a request (system prompt, messages, tools), a reply
 * (text, tool calls, stop reason, usage) and the events of a streamed reply. Adapters translate
 * it to one wire format each (OpenAI Chat Completions, Anthropic Messages, the Gemini API).
 */

export type ProviderKind = 'openai' | 'anthropic' | 'gemini';

/**
 * Tokens one call consumed, the same meaning on every wire: `input_tokens` are the prompt tokens
 * billed at the full input price (neither read from nor written to a prompt cache), so
 * input + cache_read + cache_write is the whole prompt.
 */
export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ModelTool {
  name: string;
  description?: string;
  /** JSON Schema of the tool's input (an object schema). */
  input_schema: Record<string, unknown>;
}

export interface ModelRequest {
  system?: string;
  messages: ModelMessage[];
  /** Most tokens to generate (default 1024). */
  maxTokens?: number;
  /** OpenAI-compatible servers only: the current Anthropic Messages API no longer takes it. */
  temperature?: number;
  tools?: ModelTool[];
  stopSequences?: string[];
  /** This call's model, instead of the client's. */
  model?: string;
  /** Anthropic: mark the system prompt cacheable (OpenAI-compatible servers cache on their own). */
  cacheSystemPrompt?: boolean;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'refusal' | 'other';

export interface ToolCall {
  id: string;
  name: string;
  /** The parsed arguments; the raw string when the model sent arguments that are not JSON. */
  input: unknown;
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  usage: ModelUsage;
  /** The model that answered, as the provider names it. */
  model: string;
}

/** A streamed reply: text deltas in order, each tool call once complete, then exactly one `stop`. */
export type ModelStreamEvent =
  | { type: 'text_delta'; text: string }
  | ({ type: 'tool_use' } & ToolCall)
  | { type: 'stop'; stopReason: StopReason; usage: ModelUsage; model: string };

export interface CallOptions {
  /** Aborting it cancels the call (the connection is closed); the call fails with kind `cancelled`. */
  signal?: AbortSignal;
  /** This call's timeout instead of the client's (see ModelClientConfig.timeoutMs). */
  timeoutMs?: number;
}

export interface ProbeOptions extends CallOptions {
  /**
   * `models` (default) lists the models: free, proves the address and the key. `completion` asks
   * for one token: proves the model answers now (what lifting a rate limit needs).
   */
  mode?: 'models' | 'completion';
}

export type ProbeResult =
  | { ok: true; mode: 'models' | 'completion'; model_count?: number; model_listed?: boolean }
  | {
      ok: false;
      mode: 'models' | 'completion';
      error: { kind: string; message: string; status?: number; retry_after_seconds?: number };
    };

export interface ModelClient {
  readonly kind: ProviderKind;
  /** The name errors carry (the configured provider's name; the kind by default). */
  readonly provider: string;
  readonly model: string;
  /** One whole reply. Rejects with a ModelError. */
  complete(request: ModelRequest, options?: CallOptions): Promise<ModelResponse>;
  /** The reply as it is generated. Iteration throws a ModelError; breaking out closes the connection. */
  stream(request: ModelRequest, options?: CallOptions): AsyncIterable<ModelStreamEvent>;
  /** Whether the provider answers; never throws except when `signal` cancels it. */
  probe(options?: ProbeOptions): Promise<ProbeResult>;
}

/** One finished call's usage, as `onUsage` hears it. */
export interface ModelCallUsage {
  /** The configured provider's name (the kind by default). */
  provider: string;
  /** The model that answered. */
  model: string;
  usage: ModelUsage;
}

/** Told the usage of every finished call (complete, a stream's stop, a completion probe); must not throw. */
export type UsageListener = (call: ModelCallUsage) => void;

export interface ModelClientConfig {
  kind: ProviderKind;
  /** Name carried by errors (defaults to `kind`). */
  name?: string;
  /**
   * openai: up to and including `/v1` (default https://api.openai.com/v1); anthropic: the host
   * (default https://api.anthropic.com); gemini: the host (default https://generativelanguage.googleapis.com).
   */
  baseUrl?: string;
  /** Secret; sent only as the wire's auth header, never logged. Optional for local OpenAI-compatible servers. */
  apiKey?: string;
  model: string;
  /**
   * Longest wait for the provider, in ms (default 60 000): complete() and probe() must finish
   * within it; stream() must deliver its first event, and each next one, within it.
   */
  timeoutMs?: number;
  /** Extra headers on every request (OpenRouter's HTTP-Referer, say). */
  headers?: Record<string, string>;
  /** Hears each call's usage, e.g. to keep a usage ledger (the caller owns what it does with it). */
  onUsage?: UsageListener;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_TOKENS = 1024;
