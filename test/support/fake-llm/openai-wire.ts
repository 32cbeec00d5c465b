/** The OpenAI Chat Completions wire format as the fake speaks it: JSON, SSE chunks, errors, models. */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type FakeReply, textChunks, usageOf } from './script.js';
import { frame, open, openEventStream, pause, sendJson } from './sse.js';

type Reply = Extract<FakeReply, { kind: 'reply' }>;

export function openAiError(type: string, message: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

export function openAiModels(models: string[]) {
  return {
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
  };
}

function wireUsage(reply: Reply) {
  const usage = usageOf(reply);
  const prompt = usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output_tokens,
    total_tokens: prompt + usage.output_tokens,
    prompt_tokens_details: {
      cached_tokens: usage.cache_read_tokens,
      ...(usage.cache_write_tokens ? { cache_write_tokens: usage.cache_write_tokens } : {}),
    },
  };
}

function toolCalls(reply: Reply) {
  return (reply.toolUses ?? []).map((tool, i) => ({
    id: tool.id ?? `call_${i + 1}`,
    type: 'function',
    function: { name: tool.name, arguments: JSON.stringify(tool.input) },
  }));
}

const finishOf = (reply: Reply) => reply.stopReason ?? (reply.toolUses?.length ? 'tool_calls' : 'stop');

export async function serveOpenAiChat(res: ServerResponse, reply: Reply, body: Record<string, unknown>) {
  const id = `chatcmpl-${Math.random().toString(36).slice(2, 10)}`;
  const model = String(body.model ?? 'fake-model');
  const created = Math.floor(Date.now() / 1000);
  const chunks = textChunks(reply);
  if (body.stream !== true) {
    const calls = toolCalls(reply);
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: chunks.length ? chunks.join('') : null,
            refusal: null,
            ...(calls.length ? { tool_calls: calls } : {}),
          },
          logprobs: null,
          finish_reason: finishOf(reply),
        },
      ],
      usage: wireUsage(reply),
    });
    return;
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  openEventStream(res);
  res.write(frame(chunk({ role: 'assistant', content: '' })));
  for (const [i, text] of chunks.entries()) {
    if (reply.hangAfterChunks === i) return;
    if (reply.failAfterChunks === i) {
      res.end(frame(openAiError('server_error', 'The server is overloaded')));
      return;
    }
    if (reply.chunkDelayMs) await pause(reply.chunkDelayMs);
    if (!open(res)) return;
    res.write(frame(chunk({ content: text })));
  }
  if (reply.hangAfterChunks !== undefined && reply.hangAfterChunks >= chunks.length) return;
  for (const [index, call] of toolCalls(reply).entries()) {
    // The name first, then the arguments in two pieces, as the real API splits them.
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    res.write(
      frame(
        chunk({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
          ],
        }),
      ),
    );
    res.write(frame(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] })));
    res.write(frame(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] })));
  }
  res.write(frame(chunk({}, finishOf(reply))));
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage) {
    res.write(
      frame({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: wireUsage(reply) }),
    );
  }
  res.end(frame('[DONE]'));
}

/** A unit vector that depends only on the text: equal texts embed equally, different ones differ. */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < digest.length && values.length < dimensions; i += 2) {
      values.push(digest.readUInt16BE(i) / 65535 - 0.5);
    }
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((value) => value / norm);
}

export function openAiEmbeddings(body: Record<string, unknown>, dimensions: number) {
  const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
  const size = typeof body.dimensions === 'number' ? body.dimensions : dimensions;
  const tokens = input.reduce((sum, text) => sum + Math.max(1, text.split(/\s+/).filter(Boolean).length), 0);
  return {
    object: 'list',
    data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text, size) })),
    model: String(body.model ?? 'fake-embed'),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
