/** Roster reads kept for a short time, dropped at once by an edit made through the same service. */

export const ROSTER_CACHE_TTL_MS = 5_000;
/** Past this many keys the cache starts over (a roster is tens of agents; this bounds odd callers). */
const ROSTER_CACHE_MAX_KEYS = 1_000;

/**
 * Answers of roster reads, kept `ttlMs` (real time). `clear()` drops them; a read that started
 * before a clear is not kept, so an edit here is never hidden by a read racing it.
 */
export class RosterCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  async get(key: string, read: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const generation = this.generation;
    const value = await read();
    if (generation === this.generation && keep(value)) {
      if (this.entries.size >= ROSTER_CACHE_MAX_KEYS) this.entries.clear();
      this.entries.set(key, { value, at: now });
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.generation++;
  }
}
