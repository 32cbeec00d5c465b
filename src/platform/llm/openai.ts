/**
 * The `openai` adapter: any OpenAI-compatible Chat Completions server (OpenAI, Ollama, vLLM,
 * LM Studio, OpenRouter) through the official SDK, its own retries off. Streams ask for the usage
 * chunk (`stream_options.include_usage`).
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import {
  abortedCallError,
  callError,
  errorText,
  probeWith,
  startCall,
  unfinishedStream,
  withCall,
} from './call-support.js';
import type { CallFailure } from './errors.js';
import {
  maxTokensField,
  parseArguments,
  stopReasonOf,
  stopReasonWithTools,
  toChatParams,
  toolCallsOf,
} from './openai-wire.js';
import type {
  CallOptions,
  ModelClient,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ProbeOptions,
  ProbeResult,
  StopReason,
  UsageListener,
} from './types.js';
import { reportUsage, usageFromOpenAi } from './usage.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiClientOptions {
  provider: string;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  headers?: Record<string, string>;
  onUsage?: UsageListener;
}

export class OpenAiModelClient implements ModelClient {
  readonly kind = 'openai' as const;
  readonly provider: string;
  readonly model: string;
  private readonly sdk: OpenAI;
  private readonly tokensField: 'max_tokens' | 'max_completion_tokens';

  constructor(private readonly options: OpenAiClientOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.tokensField = maxTokensField(options.baseUrl);
    this.sdk = new OpenAI({
      // Local servers (Ollama, vLLM, LM Studio) need no key; the SDK insists on one.
      apiKey: options.apiKey || 'no-key',
      baseURL: options.baseUrl,
      maxRetries: 0,
      timeout: options.timeoutMs,
      ...(options.headers ? { defaultHeaders: options.headers } : {}),
    });
  }

  complete(request: ModelRequest, options?: CallOptions): Promise<ModelResponse> {
    return withCall(
      this.provider,
      this.options.timeoutMs,
      options,
      describeOpenAiFailure,
      async (control) => {
        const params = toChatParams(request, this.model, this.tokensField);
        const reply = await this.sdk.chat.completions.create(
          { ...params, stream: false },
          { signal: control.signal, timeout: options?.timeoutMs ?? this.options.timeoutMs },
        );
        const choice = reply.choices[0];
        const toolCalls = toolCallsOf(choice?.message.tool_calls);
        const response: ModelResponse = {
          text: choice?.message.content ?? '',
          toolCalls,
          stopReason: stopReasonWithTools(stopReasonOf(choice?.finish_reason), toolCalls.length),
          usage: usageFromOpenAi(reply.usage),
          model: reply.model || params.model,
        };
        reportUsage(this.options.onUsage, this.provider, response.model, response.usage);
        return response;
      },
    );
  }

  async *stream(request: ModelRequest, options?: CallOptions): AsyncGenerator<ModelStreamEvent> {
    const control = startCall(this.options.timeoutMs, options);
    try {
      const params = toChatParams(request, this.model, this.tokensField);
      let model = params.model;
      let finish: StopReason | null = null;
      let usage: ChatCompletionChunk['usage'] = null;
      const calls = new Map<number, { id: string; name: string; args: string }>();
      try {
        const chunks = await this.sdk.chat.completions.create(
          { ...params, stream: true, stream_options: { include_usage: true } },
          { signal: control.signal, timeout: options?.timeoutMs ?? this.options.timeoutMs },
        );
        for await (const chunk of chunks) {
          control.touch();
          if (chunk.model) model = chunk.model;
          if (chunk.usage) usage = chunk.usage;
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          if (choice.delta?.content) yield { type: 'text_delta', text: choice.delta.content };
          for (const part of choice.delta?.tool_calls ?? []) {
            const call = calls.get(part.index) ?? { id: '', name: '', args: '' };
            if (part.id) call.id = part.id;
            if (part.function?.name) call.name += part.function.name;
            if (part.function?.arguments) call.args += part.function.arguments;
            calls.set(part.index, call);
          }
          if (choice.finish_reason && finish === null) {
            finish = stopReasonWithTools(stopReasonOf(choice.finish_reason), calls.size);
            for (const [, call] of [...calls].sort(([a], [b]) => a - b)) {
              yield { type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.args) };
            }
          }
        }
      } catch (error) {
        throw callError(this.provider, error, control, describeOpenAiFailure);
      }
      // The SDK ends an aborted stream quietly.
      const aborted = abortedCallError(this.provider, control);
      if (aborted) throw aborted;
      if (finish === null) throw unfinishedStream(this.provider);
      const used = usageFromOpenAi(usage);
      reportUsage(this.options.onUsage, this.provider, model, used);
      yield { type: 'stop', stopReason: finish, usage: used, model };
    } finally {
      control.settle();
    }
  }

  probe(options?: ProbeOptions): Promise<ProbeResult> {
    return probeWith(this, this.options.timeoutMs, options, describeOpenAiFailure, async (signal, timeout) =>
      (await this.sdk.models.list({ signal, timeout })).data.map((model) => model.id),
    );
  }
}

/** The OpenAI SDK's errors as call failures. */
export function describeOpenAiFailure(error: unknown): CallFailure {
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof APIUserAbortError) return { kind: 'cancelled' };
  if (error instanceof APIConnectionError) return { kind: 'connection', message: errorText(error) };
  if (error instanceof APIError) {
    const body = error.error as { message?: unknown } | undefined;
    return {
      kind: 'http',
      status: error.status,
      headers: error.headers,
      errorType: error.type ?? error.code ?? null,
      message: typeof body?.message === 'string' ? body.message : error.message,
    };
  }
  // undici reports a connection cut mid-body as TypeError('terminated').
  if (error instanceof TypeError) return { kind: 'connection', message: errorText(error) };
  return { kind: 'http', status: undefined, message: errorText(error) };
}
