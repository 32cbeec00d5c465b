/**
 * The `anthropic` adapter: the Anthropic Messages API through the official SDK, its own retries
 * off. Streams read the raw SSE events (message_start, content_block_*, message_delta,
 * message_stop); an `error` event inside the stream (overloaded_error) is a ModelError too.
 */
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { replyOf, stopReasonOf, toMessageParams } from './anthropic-wire.js';
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
import { parseArguments } from './openai-wire.js';
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
import { type AnthropicUsageLike, mergeAnthropicUsage, reportUsage, usageFromAnthropic } from './usage.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicClientOptions {
  provider: string;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  headers?: Record<string, string>;
  onUsage?: UsageListener;
}

export class AnthropicModelClient implements ModelClient {
  readonly kind = 'anthropic' as const;
  readonly provider: string;
  readonly model: string;
  private readonly sdk: Anthropic;

  constructor(private readonly options: AnthropicClientOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.sdk = new Anthropic({
      // An explicit key (even empty) keeps the SDK from reading ANTHROPIC_API_KEY or a profile.
      apiKey: options.apiKey ?? '',
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
      describeAnthropicFailure,
      async (control) => {
        const params = toMessageParams(request, this.model);
        const message = await this.sdk.messages.create(
          { ...params, stream: false },
          { signal: control.signal, timeout: options?.timeoutMs ?? this.options.timeoutMs },
        );
        const response: ModelResponse = {
          ...replyOf(message.content),
          stopReason: stopReasonOf(message.stop_reason),
          usage: usageFromAnthropic(message.usage),
          model: message.model || params.model,
        };
        reportUsage(this.options.onUsage, this.provider, response.model, response.usage);
        return response;
      },
    );
  }

  async *stream(request: ModelRequest, options?: CallOptions): AsyncGenerator<ModelStreamEvent> {
    const control = startCall(this.options.timeoutMs, options);
    try {
      const params = toMessageParams(request, this.model);
      let model = params.model;
      let usage: AnthropicUsageLike | null = null;
      let stopReason: StopReason = 'other';
      let stopped = false;
      const tools = new Map<number, { id: string; name: string; json: string }>();
      try {
        const events = await this.sdk.messages.create(
          { ...params, stream: true },
          { signal: control.signal, timeout: options?.timeoutMs ?? this.options.timeoutMs },
        );
        for await (const event of events) {
          control.touch();
          switch (event.type) {
            case 'message_start':
              if (event.message.model) model = event.message.model;
              usage = mergeAnthropicUsage(usage, event.message.usage);
              break;
            case 'content_block_start':
              if (event.content_block.type === 'tool_use') {
                const block = event.content_block;
                const initial =
                  block.input && Object.keys(block.input).length ? JSON.stringify(block.input) : '';
                tools.set(event.index, { id: block.id, name: block.name, json: initial });
              } else if (event.content_block.type === 'text' && event.content_block.text) {
                yield { type: 'text_delta', text: event.content_block.text };
              }
              break;
            case 'content_block_delta':
              if (event.delta.type === 'text_delta') yield { type: 'text_delta', text: event.delta.text };
              else if (event.delta.type === 'input_json_delta') {
                const tool = tools.get(event.index);
                if (tool) tool.json += event.delta.partial_json;
              }
              break;
            case 'content_block_stop': {
              const tool = tools.get(event.index);
              if (tool) {
                tools.delete(event.index);
                yield { type: 'tool_use', id: tool.id, name: tool.name, input: parseArguments(tool.json) };
              }
              break;
            }
            case 'message_delta':
              stopReason = stopReasonOf(event.delta.stop_reason);
              usage = mergeAnthropicUsage(usage, event.usage);
              break;
            case 'message_stop':
              stopped = true;
              break;
          }
        }
      } catch (error) {
        throw callError(this.provider, error, control, describeAnthropicFailure);
      }
      // The SDK ends an aborted stream quietly.
      const aborted = abortedCallError(this.provider, control);
      if (aborted) throw aborted;
      if (!stopped) throw unfinishedStream(this.provider);
      const used = usageFromAnthropic(usage);
      reportUsage(this.options.onUsage, this.provider, model, used);
      yield { type: 'stop', stopReason, usage: used, model };
    } finally {
      control.settle();
    }
  }

  probe(options?: ProbeOptions): Promise<ProbeResult> {
    return probeWith(
      this,
      this.options.timeoutMs,
      options,
      describeAnthropicFailure,
      async (signal, timeout) =>
        (await this.sdk.models.list({}, { signal, timeout })).data.map((model) => model.id),
    );
  }
}

/** The Anthropic SDK's errors as call failures. */
export function describeAnthropicFailure(error: unknown): CallFailure {
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof APIUserAbortError) return { kind: 'cancelled' };
  if (error instanceof APIConnectionError) return { kind: 'connection', message: errorText(error) };
  if (error instanceof APIError) {
    const body = error.error as { error?: { type?: unknown; message?: unknown } } | undefined;
    const type = error.type ?? (typeof body?.error?.type === 'string' ? body.error.type : null);
    return {
      kind: 'http',
      status: error.status,
      headers: error.headers,
      errorType: type,
      message:
        error.apiMessage ?? (typeof body?.error?.message === 'string' ? body.error.message : error.message),
    };
  }
  if (error instanceof TypeError) return { kind: 'connection', message: errorText(error) };
  return { kind: 'http', status: undefined, message: errorText(error) };
}
