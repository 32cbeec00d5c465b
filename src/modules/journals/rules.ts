/** Entry types and the least each must say (reference C §7.6). */
export const ENTRY_TYPES = ['task_reflection', 'decision_log', 'learning', 'struggle', 'general'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export const MIN_CONTENT: Record<EntryType, number> = {
  task_reflection: 50,
  decision_log: 80,
  learning: 50,
  struggle: 50,
  general: 30,
};

export const MAX_CONTENT = 20_000;

/** "<slug> — <type>: <first words>", the label retrieval cites. */
export function entryTitle(slug: string, type: string, content: string): string {
  const words = content.trim().split(/\s+/).slice(0, 8).join(' ');
  return `${slug} — ${type}: ${words}`;
}
