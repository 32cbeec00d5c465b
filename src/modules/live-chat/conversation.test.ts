import { describe, expect, it } from 'vitest';
import { modelMessages } from './conversation.js';

describe('modelMessages', () => {
  it('gives the model the chat: one message per side, tool results on the user side, display-only turns left out', () => {
    const messages = modelMessages([
      { kind: 'user', data: { text: 'I need CSV exports' } },
      { kind: 'text', data: { text: 'Here is a draft.' } },
      { kind: 'tool_use', data: { id: 't1', name: 'propose_task', input: { title: 'x' } } },
      { kind: 'draft', data: { task: { title: 'x' } } },
      { kind: 'tool_result', data: { tool_use_id: 't1', content: 'shown' } },
      { kind: 'text', data: { text: 'Confirm it.' } },
      { kind: 'created', data: { task_ids: ['a'] } },
      { kind: 'user', data: { text: 'thanks' } },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'I need CSV exports' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Here is a draft.' },
          { type: 'tool_use', id: 't1', name: 'propose_task', input: { title: 'x' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'shown' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Confirm it.' }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
  });

  it('drops a tool use left without a result (a turn cut short), which a provider would refuse', () => {
    const messages = modelMessages([
      { kind: 'user', data: { text: 'go' } },
      { kind: 'tool_use', data: { id: 't9', name: 'announce', input: {} } },
      { kind: 'user', data: { text: 'again' } },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'go' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });
});
