/** The Anthropic Messages wire format as the fake speaks it: JSON, SSE events, errors, models. */
import type { ServerResponse } from 'node:http';
import { type FakeReply, textChunks, usageOf } from './script.js';
import { frame, open, openEventStream, pause, sendJson } from './sse.js';

type Reply = Extract<FakeReply, { kind: 'reply' }>;

export function anthropicError(type: string, message: string) {
  return {
    type: 'error',
    error: { type, message },
    request_id: `req_${Math.random().toString(36).slice(2, 10)}`,
  };
}

export function anthropicModels(models: string[]) {
  return {
    data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' })),
    has_more: false,
    first_id: models[0] ?? null,
    last_id: models.at(-1) ?? null,
  };
}

function toolBlocks(reply: Reply) {
  return (reply.toolUses ?? []).map((tool, i) => ({
    type: 'tool_use' as const,
    id: tool.id ?? `toolu_${i + 1}`,
    name: tool.name,
    input: tool.input,
  }));
}

const stopOf = (reply: Reply) => reply.stopReason ?? (reply.toolUses?.length ? 'tool_use' : 'end_turn');

export async function serveAnthropicMessages(
  res: ServerResponse,
  reply: Reply,
  body: Record<string, unknown>,
) {
  const id = `msg_${Math.random().toString(36).slice(2, 10)}`;
  const model = String(body.model ?? 'fake-model');
  const chunks = textChunks(reply);
  const usage = usageOf(reply);
  const startUsage = {
    input_tokens: usage.input_tokens,
    output_tokens: 1,
    cache_creation_input_tokens: usage.cache_write_tokens,
    cache_read_input_tokens: usage.cache_read_tokens,
  };
  if (body.stream !== true) {
    sendJson(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [...(chunks.length ? [{ type: 'text', text: chunks.join('') }] : []), ...toolBlocks(reply)],
      stop_reason: stopOf(reply),
      stop_sequence: null,
      usage: { ...startUsage, output_tokens: usage.output_tokens },
    });
    return;
  }
  const send = (type: string, data: Record<string, unknown>) => res.write(frame({ type, ...data }, type));
  openEventStream(res);
  send('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: startUsage,
    },
  });
  let index = 0;
  if (chunks.length) {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    res.write(frame({ type: 'ping' }, 'ping'));
    for (const [i, text] of chunks.entries()) {
      if (reply.hangAfterChunks === i) return;
      if (reply.failAfterChunks === i) {
        res.end(frame(anthropicError('overloaded_error', 'Overloaded'), 'error'));
        return;
      }
      if (reply.chunkDelayMs) await pause(reply.chunkDelayMs);
      if (!open(res)) return;
      send('content_block_delta', { index, delta: { type: 'text_delta', text } });
    }
    if (reply.hangAfterChunks !== undefined && reply.hangAfterChunks >= chunks.length) return;
    send('content_block_stop', { index });
    index++;
  }
  for (const tool of toolBlocks(reply)) {
    send('content_block_start', { index, content_block: { ...tool, input: {} } });
    const json = JSON.stringify(tool.input);
    const half = Math.ceil(json.length / 2);
    send('content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: json.slice(0, half) },
    });
    send('content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: json.slice(half) },
    });
    send('content_block_stop', { index });
    index++;
  }
  send('message_delta', {
    delta: { stop_reason: stopOf(reply), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  send('message_stop', {});
  res.end();
}
