/** The run-cost book: lines booked in order, priced from the table until the CLI's own total settles the run. */
import { describe, expect, it } from 'vitest';
import { RunCostBook } from './run-costs.js';
import type { UsageInput } from './service.js';

/** A ledger that prices $1 per 1000 tokens when no cost is given, slowly for the first line. */
function ledger() {
  const booked: { run: string; cost: number }[] = [];
  let first = true;
  const book = new RunCostBook(async (input: UsageInput) => {
    if (first) {
      first = false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const cost = input.cost_usd ?? (input.input_tokens + input.output_tokens) / 1000;
    booked.push({ run: String(input.task_id), cost });
    return cost;
  });
  const line = (run: string, tokens: number, runCost: number | null) =>
    book.book(
      run,
      {
        agent_id: null,
        task_id: run,
        provider: 'claude',
        model: 'm',
        input_tokens: tokens,
        output_tokens: 0,
      },
      runCost,
    );
  return { booked, line };
}

describe('RunCostBook', () => {
  it("books the CLI's total less what the run's earlier lines cost, after them", async () => {
    const { booked, line } = ledger();
    void line('a', 1000, null);
    void line('a', 500, null);
    await line('a', 0, 4);
    expect(booked).toEqual([
      { run: 'a', cost: 1 },
      { run: 'a', cost: 0.5 },
      { run: 'a', cost: 2.5 },
    ]);
  });

  it('keeps runs apart, books nothing below what was already booked, and starts a run afresh after its total', async () => {
    const { booked, line } = ledger();
    await Promise.all([line('a', 2000, null), line('b', 1000, null)]);
    await line('b', 0, 0.25);
    await line('a', 0, 5);
    await line('a', 1000, null);
    expect(booked.filter((entry) => entry.run === 'b').map((entry) => entry.cost)).toEqual([1, 0]);
    expect(booked.filter((entry) => entry.run === 'a').map((entry) => entry.cost)).toEqual([2, 3, 1]);
  });
});
