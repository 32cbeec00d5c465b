/** Helpers of the optimal suites: a knowledge source the test controls, a fake provider wired in. */

import type { KnowledgeCursor, KnowledgeItem, KnowledgeSource } from '../src/modules/optimal/index.js';

/** A source over an in-memory list: `put` changes an item, `remove` leaves a tombstone. */
export function memorySource(kind: string) {
  const items = new Map<string, KnowledgeItem>();
  const calls: (KnowledgeCursor | null)[] = [];
  let tick = Date.parse('2026-01-01T00:00:00Z');
  const next = () => {
    tick += 1000;
    return new Date(tick);
  };
  const source: KnowledgeSource = {
    kind,
    async changedSince(after, limit) {
      calls.push(after);
      return [...items.values()]
        .filter(
          (item) =>
            !after ||
            item.updated_at.getTime() > after.at.getTime() ||
            (item.updated_at.getTime() === after.at.getTime() && item.ref > after.ref),
        )
        .sort((a, b) => a.updated_at.getTime() - b.updated_at.getTime() || a.ref.localeCompare(b.ref))
        .slice(0, limit);
    },
  };
  return {
    source,
    calls,
    put(ref: string, title: string, body: string, project_id: string | null = null) {
      items.set(ref, {
        source: kind,
        ref,
        project_id,
        title,
        body,
        updated_at: next(),
        deleted: false,
        url: `/notes/${ref}`,
      });
    },
    remove(ref: string) {
      const item = items.get(ref)!;
      items.set(ref, { ...item, body: '', updated_at: next(), deleted: true });
    },
  };
}

/** A paragraph of filler that matches no test query, to make bodies span several chunks. */
export const filler = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Paragraph ${i} describes routine operational background in plain words.`,
  ).join('\n\n');
