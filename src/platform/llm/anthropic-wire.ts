/**
 * The neutral request and reply in the Anthropic Messages wire format (pure): the system prompt
 * as `system` (cacheable on request), content parts as blocks, stop reasons mapped.
 */
import type {
  ContentBlock,
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { DEFAULT_MAX_TOKENS, type ModelRequest, type StopReason, type ToolCall } from './types.js';

export function toMessageParams(request: ModelRequest, model: string): MessageCreateParamsBase {
  const params: MessageCreateParamsBase = {
    model: request.model ?? model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: request.messages.map(toMessageParam),
  };
  if (request.system) {
    params.system = request.cacheSystemPrompt
      ? [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }]
      : request.system;
  }
  if (request.stopSequences?.length) params.stop_sequences = request.stopSequences;
  if (request.tools?.length) {
    params.tools = request.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      input_schema: { type: 'object', ...tool.input_schema },
    }));
  }
  return params;
}

function toMessageParam(message: ModelRequest['messages'][number]): MessageParam {
  if (typeof message.content === 'string') return { role: message.role, content: message.content };
  const blocks = message.content.map((part): ContentBlockParam => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'tool_use')
      return { type: 'tool_use', id: part.id, name: part.name, input: part.input ?? {} };
    return {
      type: 'tool_result',
      tool_use_id: part.tool_use_id,
      content: part.content,
      ...(part.is_error ? { is_error: true } : {}),
    };
  });
  return { role: message.role, content: blocks };
}

export function stopReasonOf(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'max_tokens':
    case 'tool_use':
    case 'stop_sequence':
    case 'refusal':
      return reason;
    case 'model_context_window_exceeded':
      return 'max_tokens';
    default:
      return 'other';
  }
}

export function replyOf(content: ContentBlock[]): { text: string; toolCalls: ToolCall[] } {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use')
      toolCalls.push({ id: block.id, name: block.name, input: block.input });
  }
  return { text, toolCalls };
}
