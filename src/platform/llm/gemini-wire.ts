/**
 * The neutral request and reply in the Gemini API's wire format (pure): `generateContent` bodies
 * (the system prompt as `systemInstruction`, assistant turns as role `model`, tool uses as
 * `functionCall` parts and their results as `functionResponse` parts named after the call they
 * answer, tools as `functionDeclarations` with a JSON Schema), finish reasons and `usageMetadata`.
 */
import {
  DEFAULT_MAX_TOKENS,
  type ModelRequest,
  type ModelUsage,
  type StopReason,
  type ToolCall,
} from './types.js';
import { ZERO_USAGE } from './usage.js';

export interface GeminiPart {
  text?: string;
  /** A thinking model's thought summary: not part of the reply. */
  thought?: boolean;
  functionCall?: { id?: string; name: string; args?: unknown };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: { name: string; description?: string; parametersJsonSchema: object }[] }[];
  generationConfig: { maxOutputTokens: number; temperature?: number; stopSequences?: string[] };
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** One `generateContent` answer, or one chunk of a streamed one. */
export interface GeminiResponse {
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string }[];
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  /** A stream's error chunk. */
  error?: { code?: number; message?: string; status?: string };
}

export function toGenerateContentBody(request: ModelRequest): GeminiRequestBody {
  // A tool result names the function it answers; the neutral form names only the call's id.
  const calledNames = new Map<string, string>();
  const contents = request.messages.map((message): GeminiContent => {
    const role = message.role === 'assistant' ? 'model' : 'user';
    if (typeof message.content === 'string') return { role, parts: [{ text: message.content }] };
    const parts = message.content.map((part): GeminiPart => {
      if (part.type === 'text') return { text: part.text };
      if (part.type === 'tool_use') {
        calledNames.set(part.id, part.name);
        return { functionCall: { id: part.id, name: part.name, args: part.input ?? {} } };
      }
      const key = part.is_error ? 'error' : 'output';
      return {
        functionResponse: {
          id: part.tool_use_id,
          name: calledNames.get(part.tool_use_id) ?? part.tool_use_id,
          response: { [key]: part.content },
        },
      };
    });
    return { role, parts };
  });
  const body: GeminiRequestBody = {
    contents,
    generationConfig: { maxOutputTokens: request.maxTokens ?? DEFAULT_MAX_TOKENS },
  };
  if (request.system) body.systemInstruction = { parts: [{ text: request.system }] };
  if (request.temperature !== undefined) body.generationConfig.temperature = request.temperature;
  if (request.stopSequences?.length) body.generationConfig.stopSequences = request.stopSequences;
  if (request.tools?.length) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          parametersJsonSchema: { type: 'object', ...tool.input_schema },
        })),
      },
    ];
  }
  return body;
}

/** The text and tool calls of one answer's (or chunk's) parts; `nextId` numbers calls without an id. */
export function partsOf(
  response: GeminiResponse,
  nextId: () => string,
): { text: string; toolCalls: ToolCall[]; finishReason: string | undefined } {
  const candidate = response.candidates?.[0];
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    if (typeof part.text === 'string' && !part.thought) text += part.text;
    if (part.functionCall) {
      toolCalls.push({
        id: part.functionCall.id || nextId(),
        name: part.functionCall.name,
        input: part.functionCall.args ?? {},
      });
    }
  }
  return { text, toolCalls, finishReason: candidate?.finishReason };
}

/** A finish reason in neutral terms: a reply that called a tool stopped for it. */
export function stopReasonOf(reason: string | undefined, calledTools: boolean): StopReason {
  if (calledTools && (reason === undefined || reason === 'STOP')) return 'tool_use';
  switch (reason) {
    case 'STOP':
      return 'end_turn';
    case 'MAX_TOKENS':
      return 'max_tokens';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'refusal';
    default:
      return 'other';
  }
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/**
 * `usageMetadata` in Gaffer's terms: the prompt count includes the cached part; thinking tokens
 * are billed as output. Gemini reports no cache writes (its caches are made by a separate call).
 */
export function usageFromGemini(usage: GeminiUsageMetadata | undefined): ModelUsage {
  if (!usage) return { ...ZERO_USAGE };
  const cached = count(usage.cachedContentTokenCount);
  return {
    input_tokens: Math.max(0, count(usage.promptTokenCount) - cached),
    output_tokens: count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount),
    cache_read_tokens: cached,
    cache_write_tokens: 0,
  };
}
