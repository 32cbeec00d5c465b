import { describe, expect, it } from 'vitest';
import { CHUNK_MAX, CHUNK_OVERLAP, chunkText } from './chunking.js';

const paragraph = (n: number, words = 40) =>
  `${Array.from({ length: words }, (_, i) => `p${n}w${i}`).join(' ')}.`;

describe('chunkText', () => {
  it('keeps a short text whole and an empty one as nothing', () => {
    expect(chunkText('One line.\n\nTwo lines.')).toEqual(['One line.\n\nTwo lines.']);
    expect(chunkText('  \n\n ')).toEqual([]);
  });

  it('cuts long texts at paragraphs, within bounds, with an overlap', () => {
    const text = Array.from({ length: 30 }, (_, i) => paragraph(i)).join('\n\n');
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(CHUNK_MAX);
    // Every paragraph is in some chunk, whole.
    for (let i = 0; i < 30; i++) expect(chunks.some((c) => c.includes(paragraph(i)))).toBe(true);
    // The next chunk starts with the end of the one before.
    for (let i = 1; i < chunks.length; i++) {
      const head = chunks[i]!.split('\n\n')[0]!;
      expect(head.length).toBeLessThanOrEqual(CHUNK_OVERLAP);
      expect(chunks[i - 1]!.endsWith(head)).toBe(true);
    }
  });

  it('cuts a paragraph longer than a chunk at sentence ends', () => {
    const long = Array.from(
      { length: 60 },
      (_, i) => `Sentence number ${i} says something useful here.`,
    ).join(' ');
    const chunks = chunkText(long);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(CHUNK_MAX);
      expect(chunk.endsWith('.')).toBe(true);
    }
  });
});
