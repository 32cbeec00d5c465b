/**
 * The `gemini` adapter: the Gemini API (`generateContent`, `streamGenerateContent?alt=sse`,
 * `models`) over fetch, the key in `x-goog-api-key`. Google's SDK (`@google/genai`) asks for
 * Node 22 or later while Gaffer runs on 20.19 too, so the wire is spoken here, as small as the
 * neutral client needs; the SSE frames are read by eventsource-parser.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
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
  type GeminiResponse,
  partsOf,
  stopReasonOf,
  toGenerateContentBody,
  usageFromGemini,
} from './gemini-wire.js';
import type {
  CallOptions,
  ModelClient,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelUsage,
  ProbeOptions,
  ProbeResult,
  UsageListener,
} from './types.js';
import { reportUsage } from './usage.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
const API_VERSION = 'v1beta';

export interface GeminiClientOptions {
  provider: string;
  /** The host (as GOOGLE_GEMINI_BASE_URL); the API version is added here. */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  headers?: Record<string, string>;
  onUsage?: UsageListener;
}

/** A non-2xx answer, described by its status, headers and the body's `error`. */
class GeminiHttpError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly headers: Headers | undefined,
    readonly errorStatus: string | null,
    message: string,
  ) {
    super(message);
  }
}

export class GeminiModelClient implements ModelClient {
  readonly kind = 'gemini' as const;
  readonly provider: string;
  readonly model: string;
  private readonly root: string;

  constructor(private readonly options: GeminiClientOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.root = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1(beta)?$/, '')}/${API_VERSION}`;
  }

  complete(request: ModelRequest, options?: CallOptions): Promise<ModelResponse> {
    return withCall(
      this.provider,
      this.options.timeoutMs,
      options,
      describeGeminiFailure,
      async (control) => {
        const model = request.model ?? this.model;
        const answer = (await (
          await this.send(`models/${encodeURIComponent(model)}:generateContent`, request, control.signal)
        ).json()) as GeminiResponse;
        const { text, toolCalls, finishReason } = partsOf(answer, callIds());
        const response: ModelResponse = {
          text,
          toolCalls,
          stopReason: stopReasonOf(finishReason, toolCalls.length > 0),
          usage: usageFromGemini(answer.usageMetadata),
          model: answer.modelVersion || model,
        };
        reportUsage(this.options.onUsage, this.provider, response.model, response.usage);
        return response;
      },
    );
  }

  async *stream(request: ModelRequest, options?: CallOptions): AsyncGenerator<ModelStreamEvent> {
    const control = startCall(this.options.timeoutMs, options);
    try {
      let model = request.model ?? this.model;
      let usage: ModelUsage | null = null;
      let finishReason: string | undefined;
      let calledTools = false;
      const nextId = callIds();
      try {
        const answer = await this.send(
          `models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`,
          request,
          control.signal,
        );
        const events = answer
          .body!.pipeThrough(new TextDecoderStream())
          .pipeThrough(new EventSourceParserStream());
        for await (const event of events) {
          control.touch();
          const chunk = JSON.parse(event.data) as GeminiResponse;
          if (chunk.error) throw httpErrorOf(undefined, undefined, chunk);
          if (chunk.modelVersion) model = chunk.modelVersion;
          if (chunk.usageMetadata) usage = usageFromGemini(chunk.usageMetadata);
          const parts = partsOf(chunk, nextId);
          if (parts.text) yield { type: 'text_delta', text: parts.text };
          for (const call of parts.toolCalls) {
            calledTools = true;
            yield { type: 'tool_use', ...call };
          }
          if (parts.finishReason) finishReason = parts.finishReason;
        }
      } catch (error) {
        throw callError(this.provider, error, control, describeGeminiFailure);
      }
      const aborted = abortedCallError(this.provider, control);
      if (aborted) throw aborted;
      // The stream has no terminator: the last chunk carries the finish reason.
      if (!finishReason) throw unfinishedStream(this.provider);
      const used = usage ?? usageFromGemini(undefined);
      reportUsage(this.options.onUsage, this.provider, model, used);
      yield { type: 'stop', stopReason: stopReasonOf(finishReason, calledTools), usage: used, model };
    } finally {
      control.settle();
    }
  }

  probe(options?: ProbeOptions): Promise<ProbeResult> {
    return probeWith(this, this.options.timeoutMs, options, describeGeminiFailure, async (signal) => {
      const names: string[] = [];
      let pageToken = '';
      do {
        const query = `models?pageSize=1000${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
        const page = (await (await this.fetch(query, { method: 'GET' }, signal)).json()) as {
          models?: { name?: string }[];
          nextPageToken?: string;
        };
        for (const model of page.models ?? [])
          if (model.name) names.push(model.name.replace(/^models\//, ''));
        pageToken = page.nextPageToken ?? '';
      } while (pageToken);
      return names;
    });
  }

  private send(path: string, request: ModelRequest, signal: AbortSignal): Promise<Response> {
    return this.fetch(
      path,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(toGenerateContentBody(request)),
      },
      signal,
    );
  }

  /** One request on the API's root; a non-2xx answer throws its GeminiHttpError. */
  private async fetch(path: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    const answer = await fetch(`${this.root}/${path}`, {
      ...init,
      headers: {
        ...this.options.headers,
        ...(init.headers as Record<string, string>),
        // An explicit key (even empty) keeps the caller's environment out of it.
        'x-goog-api-key': this.options.apiKey ?? '',
      },
      signal,
    });
    if (answer.ok) return answer;
    const text = await answer.text().catch(() => '');
    let body: GeminiResponse = {};
    try {
      body = JSON.parse(text) as GeminiResponse;
    } catch {
      body = { error: { message: text.slice(0, 300) } };
    }
    throw httpErrorOf(answer.status, answer.headers, body);
  }
}

/** Ids for tool calls the API sent without one (older models): unique within a reply. */
function callIds(): () => string {
  let next = 0;
  return () => `call_${++next}`;
}

function httpErrorOf(status: number | undefined, headers: Headers | undefined, body: GeminiResponse) {
  const said = body.error?.message ?? '';
  return new GeminiHttpError(status ?? undefined, headers, body.error?.status ?? null, said);
}

/** Google's error statuses where the HTTP status alone would not say it (a stream's error chunk). */
const ERROR_STATUS_TYPES: Readonly<Record<string, string>> = {
  RESOURCE_EXHAUSTED: 'rate_limit_error',
  UNAVAILABLE: 'overloaded_error',
  UNAUTHENTICATED: 'authentication_error',
  PERMISSION_DENIED: 'permission_error',
  INVALID_ARGUMENT: 'invalid_request_error',
};

/** fetch's and the API's errors as call failures. */
export function describeGeminiFailure(error: unknown): CallFailure {
  if (error instanceof GeminiHttpError) {
    return {
      kind: 'http',
      status: error.status,
      headers: error.headers,
      errorType: error.errorStatus ? (ERROR_STATUS_TYPES[error.errorStatus] ?? null) : null,
      message: error.message,
    };
  }
  if (error instanceof TypeError) return { kind: 'connection', message: errorText(error) };
  return { kind: 'http', status: undefined, message: errorText(error) };
}
