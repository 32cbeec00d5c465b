/**
 * A fake model provider on loopback that speaks the real wire formats: OpenAI Chat Completions
 * (`POST /v1/chat/completions`, JSON or SSE `data:` chunks with a usage chunk and `[DONE]`), the
 * OpenAI Responses API (`POST /v1/responses`, SSE, as the Codex CLI calls it),
 * Anthropic Messages (`POST /v1/messages`, JSON or SSE `event:`/`data:` frames), the Gemini API
 * (`/v1beta/models/<model>:generateContent`, `GET /v1beta/models`: gemini-wire.ts), OpenAI
 * embeddings (`POST /v1/embeddings`, deterministic unit vectors), plus `GET /v1/models` on both (told apart by the `anthropic-version` header). A wrong API key gets
 * the wire's 401. Each model request takes the next scripted reply (the default greeting when
 * none is left): text in chunks, tool use, a 429 with Retry-After, 529/503 overloaded, any error,
 * or a hang. Every request is recorded (headers with the key, body) with a promise that settles
 * when the client closes the connection before the answer ended.
 *
 * Point an `openai` client at `${url}/v1`, an `anthropic` or `gemini` client at `url`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicError, anthropicModels, serveAnthropicMessages } from './anthropic-wire.js';
import { geminiCall, geminiError, geminiModels, isGeminiModels, serveGemini } from './gemini-wire.js';
import { openAiEmbeddings, openAiError, openAiModels, serveOpenAiChat } from './openai-wire.js';
import { serveResponses } from './responses-wire.js';
import type { FakeReply } from './script.js';
import { sendJson } from './sse.js';

export type { FakeReply, FakeToolUse, FakeUsage } from './script.js';

export type Wire = 'openai' | 'anthropic' | 'gemini';

export interface RecordedRequest {
  wire: Wire;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The key the client sent (`Authorization: Bearer …`, or `x-api-key` on the Anthropic wire). */
  apiKey: string | undefined;
  body: Record<string, unknown>;
  /** True once the client closed the connection before the answer was complete. */
  clientClosed: boolean;
  /** Settles when the client closes the connection before the answer was complete. */
  disconnected: Promise<void>;
}

export interface FakeLlm {
  /** `http://127.0.0.1:<port>` (the Anthropic base URL; the OpenAI one is `${url}/v1`). */
  readonly url: string;
  /** Queue replies for the next model requests (and `/v1/models` calls), in order. */
  script(...replies: FakeReply[]): void;
  /**
   * Answer model requests by reading them, as a scripted model that plays a turn does: `answer`
   * sees each chat request and names its reply (undefined: the queue's next, as without it).
   */
  converse(answer: ((request: RecordedRequest) => FakeReply | undefined) | null): void;
  readonly requests: RecordedRequest[];
  /** Models listed by `/v1/models`. */
  models: string[];
  /** Length of the vectors `/v1/embeddings` answers (each a deterministic function of its text). */
  embeddingDimensions: number;
  close(): Promise<void>;
}

export interface FakeLlmOptions {
  /** The key both wires accept (default `test-key`); any other gets 401. */
  apiKey?: string;
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const expectedKey = options.apiKey ?? 'test-key';
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const fake = { models: ['fake-small', 'fake-large'], embeddingDimensions: 8 };
  let answer: ((request: RecordedRequest) => FakeReply | undefined) | null = null;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    const gemini = geminiCall(path);
    const wire: Wire =
      gemini || isGeminiModels(path)
        ? 'gemini'
        : path === '/v1/messages' || (path === '/v1/models' && req.headers['anthropic-version'] !== undefined)
          ? 'anthropic'
          : 'openai';
    // OpenAI takes `Authorization: Bearer`; Anthropic `x-api-key`, or the Bearer header its SDK 1.x
    // sends; Gemini `x-goog-api-key`.
    const auth = req.headers.authorization;
    const bearer = auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
    const header = (name: string) => req.headers[name] as string | undefined;
    const apiKey =
      wire === 'anthropic'
        ? (header('x-api-key') ?? bearer)
        : wire === 'gemini'
          ? header('x-goog-api-key')
          : bearer;
    let resolveClosed!: () => void;
    const record: RecordedRequest = {
      wire,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      apiKey,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      clientClosed: false,
      disconnected: new Promise<void>((resolve) => {
        resolveClosed = resolve;
      }),
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) {
        record.clientClosed = true;
        resolveClosed();
      }
    });

    const isModels = req.method === 'GET' && (path === '/v1/models' || isGeminiModels(path));
    const isEmbeddings = req.method === 'POST' && path === '/v1/embeddings';
    const isResponses = req.method === 'POST' && path === '/v1/responses';
    const isChat =
      req.method === 'POST' &&
      (path === '/v1/chat/completions' || path === '/v1/messages' || isResponses || gemini !== null);
    if (!isModels && !isChat && !isEmbeddings) {
      sendJson(res, 404, errorBody(wire, 404, 'Not found'));
      return;
    }
    if (apiKey !== expectedKey) {
      sendJson(res, 401, errorBody(wire, 401, 'Incorrect API key provided.'));
      return;
    }
    const reply: FakeReply = (isChat ? answer?.(record) : undefined) ?? queue.shift() ?? { kind: 'reply' };
    switch (reply.kind) {
      case 'hang':
        return;
      case 'rate_limited': {
        const headers: Record<string, string> = {};
        if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
        if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = reply.retryAfterMs;
        sendJson(res, 429, errorBody(wire, 429, 'Rate limit reached for requests'), headers);
        return;
      }
      case 'overloaded': {
        const status = reply.status ?? (wire === 'anthropic' ? 529 : 503);
        const headers: Record<string, string> = reply.retryAfter ? { 'retry-after': reply.retryAfter } : {};
        sendJson(
          res,
          status,
          errorBody(wire, status, 'The model is overloaded, please try again later'),
          headers,
        );
        return;
      }
      case 'error':
        sendJson(
          res,
          reply.status,
          errorBody(wire, reply.status, reply.message ?? `fake error ${reply.status}`, reply.type),
        );
        return;
      case 'reply':
        if (isEmbeddings) {
          sendJson(res, 200, openAiEmbeddings(record.body, fake.embeddingDimensions));
          return;
        }
        if (isModels) {
          const list = { anthropic: anthropicModels, gemini: geminiModels, openai: openAiModels }[wire];
          sendJson(res, 200, list(fake.models));
          return;
        }
        if (gemini)
          await serveGemini(
            res,
            reply,
            gemini.model,
            gemini.method === 'streamGenerateContent' && /\balt=sse\b/.test(query),
          );
        else if (wire === 'anthropic') await serveAnthropicMessages(res, reply, record.body);
        else if (isResponses) await serveResponses(res, reply, record.body);
        else await serveOpenAiChat(res, reply, record.body);
        return;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get models() {
      return fake.models;
    },
    set models(value: string[]) {
      fake.models = value;
    },
    get embeddingDimensions() {
      return fake.embeddingDimensions;
    },
    set embeddingDimensions(value: number) {
      fake.embeddingDimensions = value;
    },
    script(...replies: FakeReply[]) {
      queue.push(...replies);
    },
    converse(next) {
      answer = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An error body in the wire's own shape (`type` overrides the default error type). */
function errorBody(wire: Wire, status: number, message: string, type?: string): object {
  if (wire === 'gemini') return geminiError(status, message);
  if (wire === 'anthropic') {
    const types: Record<number, string> = {
      401: 'authentication_error',
      404: 'not_found_error',
      429: 'rate_limit_error',
      529: 'overloaded_error',
      503: 'overloaded_error',
    };
    return anthropicError(type ?? types[status] ?? 'api_error', message);
  }
  if (status === 401) return openAiError('invalid_request_error', message, 'invalid_api_key');
  if (status === 429) return openAiError('requests', message, 'rate_limit_exceeded');
  if (status === 404) return openAiError('invalid_request_error', message);
  return openAiError(type ?? 'server_error', message);
}
