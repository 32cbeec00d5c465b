/**
 * How the palette matches what was typed: every word typed must appear in the item (its value and
 * keywords: title, id, slug, name), case-insensitive. An item whose id or slug starts with the text
 * ranks first. Plain substrings, not fuzzy: a hex id prefix must not match other ids by scattered letters.
 */
export function paletteScore(value: string, search: string, keywords: readonly string[] = []): number {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 1;
  const fields = [value, ...keywords].map((field) => field.toLowerCase());
  const haystack = fields.join(' ');
  if (!words.every((word) => haystack.includes(word))) return 0;
  const text = words.join(' ');
  const key = fields[0]?.split(' ')[1] ?? '';
  return key.startsWith(text) ? 1 : 0.5;
}

/**
 * The server's task search (`q`: a title substring or an id prefix) for what was typed: its longest
 * word, so the palette's own filter can still ask for every word, in any order.
 */
export const taskSearchTerm = (typed: string): string =>
  typed
    .trim()
    .split(/\s+/)
    .reduce((longest, word) => (word.length > longest.length ? word : longest), '');
