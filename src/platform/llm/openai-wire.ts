/**
 * The neutral request and reply in the OpenAI Chat Completions wire format (pure): the system
 * prompt as the first message, tool results as `tool` messages, tool calls as `tool_calls` with
 * JSON-string arguments, finish reasons mapped to stop reasons.
 */
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import { DEFAULT_MAX_TOKENS, type ModelRequest, type StopReason, type ToolCall } from './types.js';

/** api.openai.com takes `max_completion_tokens` (newer models refuse `max_tokens`); other servers `max_tokens`. */
export function maxTokensField(baseUrl: string): 'max_tokens' | 'max_completion_tokens' {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
  } catch {
    return 'max_tokens';
  }
}

export function toChatParams(
  request: ModelRequest,
  model: string,
  tokensField: 'max_tokens' | 'max_completion_tokens',
): ChatCompletionCreateParamsBase {
  const params: ChatCompletionCreateParamsBase = {
    model: request.model ?? model,
    messages: toChatMessages(request),
    [tokensField]: request.maxTokens ?? DEFAULT_MAX_TOKENS,
  };
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.stopSequences?.length) params.stop = request.stopSequences;
  if (request.tools?.length) {
    params.tools = request.tools.map((tool) => ({
      type: 'function' as const,
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.input_schema,
      },
    }));
  }
  return params;
}

export function toChatMessages(request: ModelRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (request.system) out.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    const parts =
      typeof message.content === 'string'
        ? [{ type: 'text' as const, text: message.content }]
        : message.content;
    const text = parts
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    if (message.role === 'assistant') {
      const calls = parts.filter((part) => part.type === 'tool_use');
      out.push({
        role: 'assistant',
        content: text || null,
        ...(calls.length
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
              })),
            }
          : {}),
      });
      continue;
    }
    for (const part of parts) {
      if (part.type !== 'tool_result') continue;
      const content = part.is_error ? `Error: ${part.content}` : part.content;
      out.push({ role: 'tool', tool_call_id: part.tool_use_id, content });
    }
    if (text || !parts.some((part) => part.type === 'tool_result')) out.push({ role: 'user', content: text });
  }
  return out;
}

export function stopReasonOf(finishReason: string | null | undefined): StopReason {
  switch (finishReason) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

/** Some servers (older Ollama) finish a tool-calling reply with `stop`: a reply with tool calls is a tool_use stop. */
export function stopReasonWithTools(reason: StopReason, toolCalls: number): StopReason {
  return toolCalls > 0 && reason === 'end_turn' ? 'tool_use' : reason;
}

/** Tool arguments as sent: parsed JSON, or the raw string when it is not JSON. */
export function parseArguments(raw: string): unknown {
  if (!raw.trim()) return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function toolCallsOf(calls: ChatCompletionMessageToolCall[] | null | undefined): ToolCall[] {
  const out: ToolCall[] = [];
  for (const call of calls ?? []) {
    if (call.type === 'function') {
      out.push({ id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) });
    } else if (call.type === 'custom') {
      out.push({ id: call.id, name: call.custom.name, input: call.custom.input });
    }
  }
  return out;
}
