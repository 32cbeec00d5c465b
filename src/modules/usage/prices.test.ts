/** The price table: longest-prefix match, overrides, free local models, cost in USD. */
import { describe, expect, it } from 'vitest';
import { periodWindows, seriesBuckets, trendPct } from './periods.js';
import { costOf, DEFAULT_MODEL_PRICES, FREE, priceFor, priceTable } from './prices.js';

describe('prices', () => {
  it('price a model by the longest key it starts with, router prefixes dropped', () => {
    expect(priceFor('claude-opus-4-5-20251101', DEFAULT_MODEL_PRICES).input).toBe(5);
    expect(priceFor('claude-opus-4-1-20250805', DEFAULT_MODEL_PRICES).input).toBe(15);
    expect(priceFor('anthropic/Claude-Sonnet-4-5', DEFAULT_MODEL_PRICES).output).toBe(15);
    expect(priceFor('gpt-4o-mini-2024-07-18', DEFAULT_MODEL_PRICES).input).toBe(0.15);
  });

  it('leave local, unknown and unnamed models free, unless the setting prices them', () => {
    expect(priceFor('llama3.1:8b', DEFAULT_MODEL_PRICES)).toEqual(FREE);
    expect(priceFor(null, DEFAULT_MODEL_PRICES)).toEqual(FREE);
    const table = priceTable({
      'llama3.1': { input: 1, output: 1, cache_read: 0, cache_write: 0 },
      'gpt-4o': FREE,
    });
    expect(priceFor('llama3.1:8b', table).input).toBe(1);
    expect(priceFor('gpt-4o-2024-08-06', table)).toEqual(FREE);
  });

  it('cost every kind of token at its price, rounded to 6 decimals', () => {
    const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
    expect(
      costOf(
        { input_tokens: 1_000_000, output_tokens: 1000, cache_read_tokens: 10, cache_write_tokens: 1 },
        price,
      ),
    ).toBe(3.015007);
  });
});

describe('periods', () => {
  it('have windows ending now and an equal one before', () => {
    const now = new Date('2026-03-20T10:30:00.000Z');
    expect(periodWindows('7d', now)).toEqual({
      start: new Date('2026-03-13T10:30:00.000Z'),
      end: now,
      previousStart: new Date('2026-03-06T10:30:00.000Z'),
    });
  });

  it('bucket by the hour for 24h and by the UTC day otherwise, the last bucket holding now', () => {
    const now = new Date('2026-03-20T10:30:00.000Z');
    const hours = seriesBuckets('24h', now);
    expect(hours.starts).toHaveLength(24);
    expect(hours.starts.at(-1)).toEqual(new Date('2026-03-20T10:00:00.000Z'));
    expect(hours.starts[0]).toEqual(new Date('2026-03-19T11:00:00.000Z'));
    const days = seriesBuckets('30d', now);
    expect(days).toMatchObject({ bucket: 'day' });
    expect(days.starts.at(-1)).toEqual(new Date('2026-03-20T00:00:00.000Z'));
    expect(days.starts[0]).toEqual(new Date('2026-02-19T00:00:00.000Z'));
  });

  it('trend: % change to 1 decimal; 100 from nothing; 0 when both are nothing', () => {
    expect(trendPct(1.5, 1)).toBe(50);
    expect(trendPct(1, 3)).toBe(-66.7);
    expect(trendPct(2, 0)).toBe(100);
    expect(trendPct(0, 0)).toBe(0);
  });
});
