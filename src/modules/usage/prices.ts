/**
 * The price table (pure): USD per million tokens for input, output, cache read and cache write,
 * per model. A model is priced by the longest table key it starts with (`claude-sonnet-4-5-20250929`
 * by `claude-sonnet-4-5`), after lower-casing and dropping a router prefix (`anthropic/…`). The
 * `model_prices` setting adds to and overrides the built-in table; a model nobody priced — a local
 * model (ollama, llama.cpp, LM Studio) or an unknown one — costs nothing.
 */

export interface ModelPrice {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

const p = (input: number, output: number, cache_read: number, cache_write: number): ModelPrice => ({
  input,
  output,
  cache_read,
  cache_write,
});

/** The built-in table (list prices, USD per 1M tokens; docs/api.md's "Usage and cost" shows it). */
export const DEFAULT_MODEL_PRICES: PriceTable = Object.freeze({
  'claude-opus-4-5': p(5, 25, 0.5, 6.25),
  'claude-opus-4': p(15, 75, 1.5, 18.75),
  'claude-sonnet-4': p(3, 15, 0.3, 3.75),
  'claude-3-7-sonnet': p(3, 15, 0.3, 3.75),
  'claude-haiku-4-5': p(1, 5, 0.1, 1.25),
  'claude-3-5-haiku': p(0.8, 4, 0.08, 1),
  'gpt-5': p(1.25, 10, 0.125, 0),
  'gpt-5-mini': p(0.25, 2, 0.025, 0),
  'gpt-5-nano': p(0.05, 0.4, 0.005, 0),
  'gpt-4.1': p(2, 8, 0.5, 0),
  'gpt-4.1-mini': p(0.4, 1.6, 0.1, 0),
  'gpt-4o': p(2.5, 10, 1.25, 0),
  'gpt-4o-mini': p(0.15, 0.6, 0.075, 0),
  o3: p(2, 8, 0.5, 0),
  'o4-mini': p(1.1, 4.4, 0.275, 0),
  'gemini-2.5-pro': p(1.25, 10, 0.31, 0),
  'gemini-2.5-flash': p(0.3, 2.5, 0.075, 0),
});

export const FREE: ModelPrice = Object.freeze(p(0, 0, 0, 0));

/** `anthropic/claude-sonnet-4-5` → `claude-sonnet-4-5`; lower case. */
const normalise = (model: string): string => {
  const lower = model.trim().toLowerCase();
  return lower.slice(lower.lastIndexOf('/') + 1);
};

/** The price of `model` in `table` (longest key it starts with); free when none fits or no model is named. */
export function priceFor(model: string | null | undefined, table: PriceTable): ModelPrice {
  if (!model) return FREE;
  const name = normalise(model);
  let best: string | null = null;
  for (const key of Object.keys(table)) {
    const candidate = key.toLowerCase();
    if (name.startsWith(candidate) && (best === null || candidate.length > best.length)) best = candidate;
  }
  if (best === null) return FREE;
  const entry = Object.entries(table).find(([key]) => key.toLowerCase() === best);
  return entry ? entry[1] : FREE;
}

/** The built-in table with the setting's entries laid over it. */
export const priceTable = (overrides: PriceTable): PriceTable => ({ ...DEFAULT_MODEL_PRICES, ...overrides });

/** USD for the tokens at the price, rounded to 6 decimals (what the ledger keeps). */
export function costOf(tokens: TokenCounts, price: ModelPrice): number {
  const micro =
    tokens.input_tokens * price.input +
    tokens.output_tokens * price.output +
    tokens.cache_read_tokens * price.cache_read +
    tokens.cache_write_tokens * price.cache_write;
  return roundUsd(micro / 1_000_000);
}

export const roundUsd = (usd: number): number => Math.round(usd * 1e6) / 1e6;
