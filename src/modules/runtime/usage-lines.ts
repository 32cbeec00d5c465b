/**
 * Reads token usage out of an agent CLI's JSON output lines (pure apart from its own running
 * totals; one reader per run):
 *
 * - Claude Code `--output-format stream-json`: every `assistant` line carries its API message's
 *   `message.usage` (`input_tokens`, `output_tokens`, `cache_read_input_tokens`,
 *   `cache_creation_input_tokens`); a message printed over several lines counts once (only what
 *   grew since its last line). The closing `result` line carries the session's totals (and
 *   `total_cost_usd`): whatever they add to what the assistant lines already counted is counted, and
 *   the CLI's cost is handed on as the whole run's cost (the ledger books what it adds).
 * - Codex `exec --json`: `turn.completed` lines carry the turn's `usage` (`input_tokens` including
 *   `cached_input_tokens`, `output_tokens`); older `token_count` events carry the running total
 *   (`info.total_token_usage`, counted as what grew) or one turn's flat counts. The model is read
 *   from `session_configured` / `system` init lines, else the run's own model.
 * - Gemini CLI `--output-format stream-json`: the closing `result` line's `stats.models` carries
 *   each model the run used (its router's as well as the main one) with `input_tokens` (including
 *   `cached`) and `output_tokens`: one record per model.
 *
 * Anything else (plain text, other JSON) is ignored. Each result is one usage record.
 */

export interface LineUsage {
  model: string | null;
  /** Prompt tokens at the full input price (cache reads and writes apart). */
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** The whole run's cost so far as the CLI itself reported it, in USD; null: price these tokens from the table. */
  run_cost_usd: number | null;
}

type Counts = Pick<LineUsage, 'input_tokens' | 'output_tokens' | 'cache_read_tokens' | 'cache_write_tokens'>;

const FIELDS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'] as const;
/** A line longer than this is not a usage line; it is dropped rather than held. */
const MAX_LINE_CHARS = 1024 * 1024;

const ZERO: Counts = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
const record = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value.trim() : null;

const anthropicCounts = (usage: Record<string, unknown>): Counts => ({
  input_tokens: count(usage.input_tokens),
  output_tokens: count(usage.output_tokens),
  cache_read_tokens: count(usage.cache_read_input_tokens),
  cache_write_tokens: count(usage.cache_creation_input_tokens),
});

/** Codex (OpenAI) counts: `input_tokens` includes the cached ones. */
const codexCounts = (usage: Record<string, unknown>): Counts => {
  const cached = count(usage.cached_input_tokens);
  return {
    input_tokens: Math.max(0, count(usage.input_tokens) - cached),
    output_tokens: count(usage.output_tokens),
    cache_read_tokens: cached,
    cache_write_tokens: 0,
  };
};

const add = (a: Counts, b: Counts): Counts => ({
  input_tokens: a.input_tokens + b.input_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
  cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
  cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens,
});

/** What `now` has more than `before`, field by field (never negative). */
const growth = (now: Counts, before: Counts): Counts => ({
  input_tokens: Math.max(0, now.input_tokens - before.input_tokens),
  output_tokens: Math.max(0, now.output_tokens - before.output_tokens),
  cache_read_tokens: Math.max(0, now.cache_read_tokens - before.cache_read_tokens),
  cache_write_tokens: Math.max(0, now.cache_write_tokens - before.cache_write_tokens),
});

const isZero = (counts: Counts) => FIELDS.every((field) => counts[field] === 0);

export class UsageLineReader {
  private pending = '';
  private model: string | null;
  /** Everything counted in this run so far. */
  private counted: Counts = { ...ZERO };
  /** Claude: what each API message has been counted for. */
  private readonly messages = new Map<string, Counts>();
  /** Codex `token_count`: the last running total seen. */
  private codexTotal: Counts | null = null;

  constructor(model: string | null = null) {
    this.model = model;
  }

  /** The model the run was started with when the reader was made without one. */
  assume(model: string): void {
    this.model ??= model;
  }

  /** A chunk of the run's stdout (whole lines, or a line cut in pieces); the usage its complete lines carry. */
  push(chunk: string): LineUsage[] {
    this.pending += chunk;
    const lines = this.pending.split('\n');
    this.pending = lines.pop() ?? '';
    if (this.pending.length > MAX_LINE_CHARS) this.pending = '';
    // A last line without its newline (the end of the output) is read once it is whole JSON.
    if (this.pending.trimEnd().endsWith('}') && parse(this.pending)) {
      lines.push(this.pending);
      this.pending = '';
    }
    return lines.flatMap((line) => this.usagesOf(line));
  }

  /** The usage one line carries: none, one record, or one per model (Gemini's result line). */
  private usagesOf(line: string): LineUsage[] {
    const event = parse(line);
    if (!event) return [];
    const models = record(record(event.stats)?.models);
    if (event.type === 'result' && models) return this.geminiModels(models);
    const usage = this.usageOf(event);
    return usage ? [usage] : [];
  }

  private usageOf(event: Record<string, unknown>): LineUsage | null {
    switch (event.type) {
      case 'system':
        this.model = text(event.model) ?? this.model;
        return null;
      case 'assistant':
        return this.claudeMessage(record(event.message));
      case 'result':
        return this.claudeResult(event);
      case 'turn.completed': {
        const usage = record(event.usage);
        return usage ? this.counts(codexCounts(usage), null) : null;
      }
      default:
        return this.codexEvent(record(event.msg) ?? record(event.payload) ?? event);
    }
  }

  private claudeMessage(message: Record<string, unknown> | null): LineUsage | null {
    const usage = record(message?.usage);
    if (!message || !usage) return null;
    this.model = text(message.model) ?? this.model;
    const now = anthropicCounts(usage);
    const id = text(message.id);
    if (!id) return this.counts(now, null);
    const before = this.messages.get(id) ?? ZERO;
    this.messages.set(id, { ...before, ...maxOf(before, now) });
    return this.counts(growth(now, before), null);
  }

  private claudeResult(event: Record<string, unknown>): LineUsage | null {
    const usage = record(event.usage);
    const models = record(event.modelUsage);
    const model = models ? Object.keys(models)[0] : undefined;
    if (model) this.model = this.model ?? model;
    if (!usage) return null;
    const cost =
      typeof event.total_cost_usd === 'number' && event.total_cost_usd >= 0 ? event.total_cost_usd : null;
    return this.counts(growth(anthropicCounts(usage), this.counted), cost);
  }

  private geminiModels(models: Record<string, unknown>): LineUsage[] {
    return Object.entries(models).flatMap(([model, value]) => {
      const stats = record(value);
      if (!stats) return [];
      const cached = count(stats.cached);
      const counts = {
        input_tokens: Math.max(0, count(stats.input_tokens) - cached),
        output_tokens: count(stats.output_tokens),
        cache_read_tokens: cached,
        cache_write_tokens: 0,
      };
      const usage = this.counts(counts, null);
      return usage ? [{ ...usage, model }] : [];
    });
  }

  private codexEvent(event: Record<string, unknown>): LineUsage | null {
    if (event.type === 'session_configured') {
      this.model = text(event.model) ?? this.model;
      return null;
    }
    if (event.type !== 'token_count') return null;
    const info = record(event.info);
    const total = record(info?.total_token_usage);
    if (total) {
      const now = codexCounts(total);
      const before = this.codexTotal ?? ZERO;
      this.codexTotal = now;
      return this.counts(growth(now, before), null);
    }
    const last = record(info?.last_token_usage);
    if (info) return last ? this.counts(codexCounts(last), null) : null;
    return this.counts(codexCounts(event), null);
  }

  private counts(counts: Counts, runCost: number | null): LineUsage | null {
    if (isZero(counts) && runCost === null) return null;
    this.counted = add(this.counted, counts);
    return { model: this.model, ...counts, run_cost_usd: runCost };
  }
}

const maxOf = (a: Counts, b: Counts): Counts => ({
  input_tokens: Math.max(a.input_tokens, b.input_tokens),
  output_tokens: Math.max(a.output_tokens, b.output_tokens),
  cache_read_tokens: Math.max(a.cache_read_tokens, b.cache_read_tokens),
  cache_write_tokens: Math.max(a.cache_write_tokens, b.cache_write_tokens),
});

function parse(line: string): Record<string, unknown> | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    return record(JSON.parse(trimmed));
  } catch {
    return null;
  }
}
