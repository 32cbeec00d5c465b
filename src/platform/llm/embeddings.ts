/**
 * Embeddings for retrieval, through the OpenAI-compatible `/embeddings` endpoint (OpenAI, Ollama,
 * vLLM, LM Studio, OpenRouter); the Anthropic API has none. Vectors come back in input order,
 * as plain floats (`encoding_format: 'float'`, which every compatible server speaks). Same
 * timeout, cancellation and error family as the chat clients.
 */
import OpenAI from 'openai';
import { callError, startCall } from './call-support.js';
import { describeOpenAiFailure, OPENAI_DEFAULT_BASE_URL } from './openai.js';
import { type CallOptions, DEFAULT_TIMEOUT_MS } from './types.js';

export interface EmbeddingClientConfig {
  kind: 'openai';
  /** Name carried by errors (defaults to `kind`). */
  name?: string;
  baseUrl?: string;
  apiKey?: string;
  /** The embedding model (`text-embedding-3-small`, `nomic-embed-text`…). */
  model: string;
  /** Ask for vectors of this length (models that support shortening). */
  dimensions?: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export interface EmbeddingResult {
  /** One vector per input text, in input order. */
  vectors: number[][];
  model: string;
  usage: { input_tokens: number };
}

export interface EmbeddingClient {
  readonly provider: string;
  readonly model: string;
  embed(texts: string[], options?: CallOptions): Promise<EmbeddingResult>;
}

export function createEmbeddingClient(config: EmbeddingClientConfig): EmbeddingClient {
  if (config.kind !== 'openai') throw new TypeError(`no embeddings for provider kind ${String(config.kind)}`);
  if (!config.model) throw new TypeError('an embedding client needs a model');
  const provider = config.name ?? config.kind;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sdk = new OpenAI({
    apiKey: config.apiKey || 'no-key',
    baseURL: config.baseUrl || OPENAI_DEFAULT_BASE_URL,
    maxRetries: 0,
    timeout: timeoutMs,
    ...(config.headers ? { defaultHeaders: config.headers } : {}),
  });
  return {
    provider,
    model: config.model,
    async embed(texts, options) {
      if (texts.length === 0) return { vectors: [], model: config.model, usage: { input_tokens: 0 } };
      const control = startCall(timeoutMs, options);
      try {
        const reply = await sdk.embeddings.create(
          {
            model: config.model,
            input: texts,
            encoding_format: 'float',
            ...(config.dimensions ? { dimensions: config.dimensions } : {}),
          },
          { signal: control.signal, timeout: options?.timeoutMs ?? timeoutMs },
        );
        const vectors: number[][] = new Array(texts.length);
        for (const item of reply.data) vectors[item.index] = item.embedding;
        return {
          vectors,
          model: reply.model || config.model,
          usage: { input_tokens: reply.usage?.prompt_tokens ?? 0 },
        };
      } catch (error) {
        throw callError(provider, error, control, describeOpenAiFailure);
      } finally {
        control.settle();
      }
    },
  };
}
