/**
 * The OpenAI Responses API as the fake speaks it (`POST /v1/responses`, SSE), the wire the Codex CLI
 * uses: `response.created`, the text as `response.output_text.delta` events, each output item
 * (an assistant message, a function call) as `response.output_item.added` / `.done`, and
 * `response.completed` with the usage. A tool named `namespace__name` whose namespace the request
 * declares (Codex groups an MCP server's tools as `mcp__<server>`) is called in that namespace.
 */
import type { ServerResponse } from 'node:http';
import { type FakeReply, textChunks, usageOf } from './script.js';
import { frame, open, openEventStream, pause } from './sse.js';

type Reply = Extract<FakeReply, { kind: 'reply' }>;

function wireUsage(reply: Reply) {
  const usage = usageOf(reply);
  const input = usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cache_read_tokens },
    output_tokens: usage.output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output_tokens,
  };
}

/** The namespaces the request declares (`{"type":"namespace","name":…}` tools). */
function namespacesOf(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as { type?: string; name?: string }[]) : [];
  return tools.filter((tool) => tool.type === 'namespace' && tool.name).map((tool) => tool.name!);
}

function functionCall(name: string, input: Record<string, unknown>, callId: string, namespaces: string[]) {
  const namespace = namespaces.find((space) => name.startsWith(`${space}__`));
  return {
    type: 'function_call',
    id: `fc_${callId}`,
    call_id: callId,
    status: 'completed',
    ...(namespace ? { namespace, name: name.slice(namespace.length + 2) } : { name }),
    arguments: JSON.stringify(input),
  };
}

export async function serveResponses(res: ServerResponse, reply: Reply, body: Record<string, unknown>) {
  const id = `resp_${Math.random().toString(36).slice(2, 10)}`;
  const model = String(body.model ?? 'fake-model');
  const created_at = Math.floor(Date.now() / 1000);
  const response = (status: string, output: unknown[] = [], usage: unknown = null) => ({
    id,
    object: 'response',
    created_at,
    status,
    model,
    output,
    usage,
  });
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    frame({ type, sequence_number: sequence++, ...data }, type);

  openEventStream(res);
  res.write(event('response.created', { response: response('in_progress') }));
  const output: Record<string, unknown>[] = [];
  const chunks = textChunks(reply);
  if (chunks.length) {
    const itemId = `msg_${id}`;
    const index = output.length;
    res.write(
      event('response.output_item.added', {
        output_index: index,
        item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] },
      }),
    );
    for (const text of chunks) {
      if (reply.chunkDelayMs) await pause(reply.chunkDelayMs);
      if (!open(res)) return;
      res.write(
        event('response.output_text.delta', {
          item_id: itemId,
          output_index: index,
          content_index: 0,
          delta: text,
        }),
      );
    }
    const item = {
      type: 'message',
      id: itemId,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: chunks.join(''), annotations: [] }],
    };
    res.write(event('response.output_item.done', { output_index: index, item }));
    output.push(item);
  }
  const namespaces = namespacesOf(body);
  for (const [i, tool] of (reply.toolUses ?? []).entries()) {
    const item = functionCall(tool.name, tool.input, tool.id ?? `call_${id}_${i}`, namespaces);
    const index = output.length;
    res.write(event('response.output_item.added', { output_index: index, item: { ...item, arguments: '' } }));
    res.write(event('response.output_item.done', { output_index: index, item }));
    output.push(item);
  }
  res.end(event('response.completed', { response: response('completed', output, wireUsage(reply)) }));
}
