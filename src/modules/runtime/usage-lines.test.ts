/** Usage lines of agent CLIs: Claude Code stream-json and Codex JSON events, counted once each. */
import { describe, expect, it } from 'vitest';
import { UsageLineReader } from './usage-lines.js';

const line = (value: object) => `${JSON.stringify(value)}\n`;
const claudeUsage = (input: number, output: number, read = 0, write = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
});

describe('Claude Code stream-json', () => {
  it("counts each message once, what it grew by later, and what the result line adds with the CLI's cost of the run", () => {
    const reader = new UsageLineReader(null);
    const found = reader.push(
      line({ type: 'system', subtype: 'init', model: 'claude-opus-4-5' }) +
        line({ type: 'assistant', message: { id: 'a', usage: claudeUsage(10, 1, 100, 50) } }) +
        line({ type: 'assistant', message: { id: 'a', usage: claudeUsage(10, 1, 100, 50) } }) +
        line({ type: 'assistant', message: { id: 'a', usage: claudeUsage(10, 7, 100, 50) } }) +
        line({
          type: 'assistant',
          message: { id: 'b', model: 'claude-haiku-4-5', usage: claudeUsage(5, 2) },
        }) +
        'plain text the agent printed\n',
    );
    expect(found).toEqual([
      {
        model: 'claude-opus-4-5',
        input_tokens: 10,
        output_tokens: 1,
        cache_read_tokens: 100,
        cache_write_tokens: 50,
        run_cost_usd: null,
      },
      {
        model: 'claude-opus-4-5',
        input_tokens: 0,
        output_tokens: 6,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        run_cost_usd: null,
      },
      {
        model: 'claude-haiku-4-5',
        input_tokens: 5,
        output_tokens: 2,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        run_cost_usd: null,
      },
    ]);
    const result = reader.push(
      line({
        type: 'result',
        total_cost_usd: 0.5,
        usage: claudeUsage(20, 30, 100, 50),
        modelUsage: { x: {} },
      }),
    );
    expect(result).toEqual([
      {
        model: 'claude-haiku-4-5',
        input_tokens: 5,
        output_tokens: 21,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        run_cost_usd: 0.5,
      },
    ]);
  });

  it("takes a result line alone with the CLI's own cost, and a line cut across chunks", () => {
    const reader = new UsageLineReader('claude-sonnet-4-5');
    const text = line({ type: 'result', total_cost_usd: 0.25, usage: claudeUsage(100, 20, 0, 0) });
    expect(reader.push(text.slice(0, 30))).toEqual([]);
    expect(reader.push(text.slice(30))).toEqual([
      {
        model: 'claude-sonnet-4-5',
        input_tokens: 100,
        output_tokens: 20,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        run_cost_usd: 0.25,
      },
    ]);
  });

  it('hands on a result line that adds no tokens for its cost alone', () => {
    const reader = new UsageLineReader('m');
    reader.push(line({ type: 'assistant', message: { id: 'a', usage: claudeUsage(10, 5) } }));
    expect(reader.push(line({ type: 'result', total_cost_usd: 0.02, usage: claudeUsage(10, 5) }))).toEqual([
      {
        model: 'm',
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        run_cost_usd: 0.02,
      },
    ]);
    expect(reader.push(line({ type: 'result', usage: claudeUsage(10, 5) }))).toEqual([]);
  });

  it('reads a last line that has no newline', () => {
    const reader = new UsageLineReader('m');
    expect(reader.push(JSON.stringify({ type: 'result', usage: claudeUsage(1, 2) }))).toHaveLength(1);
  });
});

describe('Codex JSON events', () => {
  it('counts turn.completed usage with the cached part as cache reads', () => {
    const reader = new UsageLineReader('gpt-5-codex');
    expect(
      reader.push(
        line({ type: 'thread.started', thread_id: 't' }) +
          line({
            type: 'turn.completed',
            usage: { input_tokens: 1000, cached_input_tokens: 800, output_tokens: 50 },
          }),
      ),
    ).toEqual([
      {
        model: 'gpt-5-codex',
        input_tokens: 200,
        output_tokens: 50,
        cache_read_tokens: 800,
        cache_write_tokens: 0,
        run_cost_usd: null,
      },
    ]);
  });

  it('books turn.completed under the model the run was started with (its lines name none)', () => {
    const reader = new UsageLineReader(null);
    reader.assume('gpt-5');
    reader.assume('later-guess');
    const [usage] = reader.push(
      line({ type: 'turn.completed', usage: { input_tokens: 10, output_tokens: 2 } }),
    );
    expect(usage?.model).toBe('gpt-5');
  });

  it('counts token_count running totals by what grew, and flat token_count events as they are', () => {
    const reader = new UsageLineReader(null);
    const total = (input: number, cached: number, output: number) => ({
      id: '1',
      msg: {
        type: 'token_count',
        info: {
          total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
        },
      },
    });
    const found = reader.push(
      line({ id: '0', msg: { type: 'session_configured', model: 'o4-mini' } }) +
        line(total(100, 0, 10)) +
        line(total(100, 0, 10)) +
        line(total(250, 100, 30)) +
        line({
          id: '2',
          msg: { type: 'token_count', input_tokens: 7, cached_input_tokens: 0, output_tokens: 3 },
        }),
    );
    expect(found.map((u) => [u.model, u.input_tokens, u.cache_read_tokens, u.output_tokens])).toEqual([
      ['o4-mini', 100, 0, 10],
      ['o4-mini', 50, 100, 20],
      ['o4-mini', 7, 0, 3],
    ]);
  });

  it('ignores JSON that carries no usage and lines that are not JSON', () => {
    const reader = new UsageLineReader('m');
    expect(reader.push('{"type":"item.completed","item":{}}\n{not json}\n[1,2]\n')).toEqual([]);
  });
});

describe('Gemini CLI stream-json', () => {
  it('books the result line per model, the router model as well as the main one', () => {
    const reader = new UsageLineReader(null);
    const result = {
      type: 'result',
      status: 'success',
      stats: {
        total_tokens: 1060,
        input_tokens: 1048,
        output_tokens: 12,
        cached: 400,
        models: {
          'gemini-flash-lite': { total_tokens: 13, input_tokens: 12, output_tokens: 1, cached: 0, input: 12 },
          'gemini-flash': {
            total_tokens: 1047,
            input_tokens: 1036,
            output_tokens: 11,
            cached: 400,
            input: 636,
          },
        },
      },
    };
    expect(reader.push(line({ type: 'init', model: 'auto' }) + line(result))).toEqual([
      {
        model: 'gemini-flash-lite',
        input_tokens: 12,
        output_tokens: 1,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        run_cost_usd: null,
      },
      {
        model: 'gemini-flash',
        input_tokens: 636,
        output_tokens: 11,
        cache_read_tokens: 400,
        cache_write_tokens: 0,
        run_cost_usd: null,
      },
    ]);
  });
});
