/**
 * The Gemini API as the fake speaks it, as the Gemini CLI calls it through `GOOGLE_GEMINI_BASE_URL`:
 * `POST /v1beta/models/<model>:generateContent` (JSON) and `:streamGenerateContent?alt=sse` (SSE
 * `data:` chunks, no terminator), `GET /v1beta/models`, the key in `x-goog-api-key`, errors as
 * `{error: {code, message, status}}` (in a stream, an error chunk). A reply's text goes out in
 * chunks; its tool uses as `functionCall` parts.
 */
import type { ServerResponse } from 'node:http';
import { type FakeReply, textChunks, usageOf } from './script.js';
import { frame, open, openEventStream, pause, sendJson } from './sse.js';

type Reply = Extract<FakeReply, { kind: 'reply' }>;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function geminiError(code: number, message: string) {
  return { error: { code, message, status: STATUS_NAMES[code] ?? 'UNKNOWN' } };
}

/** `GET /v1beta/models`'s answer. */
export function geminiModels(ids: string[]) {
  return { models: ids.map((id) => ({ name: `models/${id}`, displayName: id })) };
}

/** Whether a path is the models list. */
export const isGeminiModels = (path: string) => path === '/v1beta/models';

/** `/v1beta/models/<model>:<method>` → its parts, or null for another path. */
export function geminiCall(path: string): { model: string; method: string } | null {
  const match = /^\/v1(?:beta)?\/models\/([^/:]+):([A-Za-z]+)$/.exec(path);
  return match ? { model: decodeURIComponent(match[1]!), method: match[2]! } : null;
}

function usageMetadata(reply: Reply) {
  const usage = usageOf(reply);
  const prompt = usage.input_tokens + usage.cache_read_tokens;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: usage.output_tokens,
    totalTokenCount: prompt + usage.output_tokens,
    ...(usage.cache_read_tokens ? { cachedContentTokenCount: usage.cache_read_tokens } : {}),
  };
}

const candidate = (parts: object[], finishReason?: string) => ({
  content: { role: 'model', parts },
  index: 0,
  ...(finishReason ? { finishReason } : {}),
});

export async function serveGemini(res: ServerResponse, reply: Reply, model: string, stream: boolean) {
  const calls = (reply.toolUses ?? []).map((tool) => ({
    functionCall: { name: tool.name, args: tool.input },
  }));
  const chunks = textChunks(reply);
  const finishReason = reply.stopReason ?? 'STOP';
  const body = (parts: object[], finish?: string, withUsage = false) => ({
    candidates: [candidate(parts, finish)],
    ...(withUsage ? { usageMetadata: usageMetadata(reply) } : {}),
    modelVersion: model,
    responseId: `fake-${Math.random().toString(36).slice(2, 10)}`,
  });
  if (!stream) {
    const text = chunks.join('');
    sendJson(res, 200, body([...(text ? [{ text }] : []), ...calls], finishReason, true));
    return;
  }
  openEventStream(res);
  for (const [i, text] of chunks.entries()) {
    if (reply.hangAfterChunks === i) return;
    if (reply.failAfterChunks === i) {
      res.end(frame(geminiError(503, 'The model is overloaded. Please try again later.')));
      return;
    }
    if (reply.chunkDelayMs) await pause(reply.chunkDelayMs);
    if (!open(res)) return;
    res.write(frame(body([{ text }])));
  }
  if (reply.hangAfterChunks !== undefined && reply.hangAfterChunks >= chunks.length) return;
  res.end(frame(body(calls, finishReason, true)));
}
