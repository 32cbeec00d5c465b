import { describe, expect, it } from 'vitest';
import { mapBounded } from './bounded-pool.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('mapBounded', () => {
  it('keeps at most `limit` calls in flight and answers in input order', async () => {
    let inFlight = 0;
    let peak = 0;
    const results = await mapBounded([5, 4, 3, 2, 1, 0], 2, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await tick();
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 40, 30, 20, 10, 0]);
    expect(peak).toBe(2);
  });

  it('stops handing out items once aborted', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const run = mapBounded(
      [1, 2, 3, 4, 5],
      1,
      async (n) => {
        seen.push(n);
        if (n === 2) controller.abort(new Error('killed'));
        await tick();
      },
      controller.signal,
    );
    await expect(run).rejects.toThrow('killed');
    expect(seen).toEqual([1, 2]);
  });

  it('answers an empty list at once', async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
  });
});
