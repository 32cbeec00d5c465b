/**
 * Pure: the persisted turns of a chat as the model's messages. User text and tool results are the
 * user's side, assistant text and tool uses the assistant's; consecutive parts of one side are one
 * message. Turns only the CEO sees (drafts, directives, errors, created tasks) are left out.
 */
import type { ContentPart, ModelMessage } from '../../platform/llm/index.js';
import type { Turn } from './store.js';

export function modelMessages(turns: readonly Pick<Turn, 'kind' | 'data'>[]): ModelMessage[] {
  // A tool use left without a result (a turn cut short) would be refused by the provider: skip it.
  const answered = new Set(
    turns.filter((t) => t.kind === 'tool_result').map((t) => String(t.data.tool_use_id)),
  );
  const messages: { role: 'user' | 'assistant'; content: ContentPart[] }[] = [];
  const push = (role: 'user' | 'assistant', part: ContentPart) => {
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(part);
    else messages.push({ role, content: [part] });
  };
  for (const turn of turns) {
    const d = turn.data;
    switch (turn.kind) {
      case 'user':
        push('user', { type: 'text', text: String(d.text ?? '') });
        break;
      case 'text':
        if (d.text) push('assistant', { type: 'text', text: String(d.text) });
        break;
      case 'tool_use':
        if (answered.has(String(d.id)))
          push('assistant', {
            type: 'tool_use',
            id: String(d.id),
            name: String(d.name),
            input: d.input ?? {},
          });
        break;
      case 'tool_result':
        push('user', {
          type: 'tool_result',
          tool_use_id: String(d.tool_use_id),
          content: String(d.content ?? ''),
          ...(d.is_error ? { is_error: true } : {}),
        });
        break;
      default:
        break;
    }
  }
  return messages;
}
