/**
 * Runs `work` over `items` with at most `limit` in flight at once; results in input order.
 * Stops handing out new items once `signal` aborts (items in flight finish or abort themselves),
 * and rejects with the abort reason.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  signal?.throwIfAborted();
  return results;
}
