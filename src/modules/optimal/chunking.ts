/**
 * Cuts an item's text into chunks for the index (pure): paragraphs are kept whole while they fit,
 * a chunk closes once it holds about TARGET characters and never exceeds MAX, a paragraph longer
 * than MAX is cut at sentence ends (else at spaces), and each chunk after the first starts with
 * the last ~OVERLAP characters of the one before, so a sentence on a border is found in both.
 */
export const CHUNK_TARGET = 1_200;
export const CHUNK_MAX = 1_500;
export const CHUNK_OVERLAP = 150;

/** Pieces of at most `max` characters, cut at the last sentence end, else the last space. */
function splitLong(paragraph: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = paragraph;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? '));
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 2) cut = max - 1;
    pieces.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trimStart();
  }
  if (rest.trim()) pieces.push(rest.trim());
  return pieces;
}

/** The last ~`size` characters of `text`, starting at a word. */
function tailOf(text: string, size: number): string {
  if (text.length <= size) return text;
  const tail = text.slice(-size);
  const space = tail.indexOf(' ');
  return (space === -1 ? tail : tail.slice(space + 1)).trim();
}

export function chunkText(text: string): string[] {
  const paragraphs = text
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .flatMap((p) => splitLong(p, CHUNK_MAX - CHUNK_OVERLAP - 2));
  const chunks: string[] = [];
  let current = '';
  let fresh = false; // holds more than the overlap carried over
  for (const paragraph of paragraphs) {
    const joined = current ? `${current}\n\n${paragraph}` : paragraph;
    if (fresh && (joined.length > CHUNK_MAX || current.length >= CHUNK_TARGET)) {
      chunks.push(current);
      current = `${tailOf(current, CHUNK_OVERLAP)}\n\n${paragraph}`;
    } else {
      current = joined;
    }
    fresh = true;
  }
  if (fresh) chunks.push(current);
  return chunks;
}
