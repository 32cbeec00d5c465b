import { describe, expect, it } from 'vitest';
import { LineChunker } from './output-chunker.js';

const chunker = (max?: number) => {
  const chunks: string[] = [];
  return { chunks, lines: new LineChunker((text) => chunks.push(text), max) };
};

describe('LineChunker', () => {
  it('emits the whole lines of each read together and holds a partial line for its newline', () => {
    const { chunks, lines } = chunker();
    lines.push(Buffer.from('one\ntwo\nthr'));
    lines.push(Buffer.from('ee\n'));
    lines.push(Buffer.from('tail'));
    expect(chunks).toEqual(['one\ntwo\n', 'three\n']);
    lines.end();
    expect(chunks).toEqual(['one\ntwo\n', 'three\n', 'tail']);
  });

  it('decodes UTF-8 split across reads', () => {
    const { chunks, lines } = chunker();
    const bytes = Buffer.from('héllo ✓\n');
    lines.push(bytes.subarray(0, 2));
    lines.push(bytes.subarray(2, 9));
    lines.push(bytes.subarray(9));
    expect(chunks.join('')).toBe('héllo ✓\n');
  });

  it('keeps every chunk within the bound, cutting inside a line only when it alone is longer', () => {
    const { chunks, lines } = chunker(10);
    lines.push('aaaa\nbbbb\ncccc\n');
    lines.push('x'.repeat(25));
    lines.end();
    expect(chunks.every((c) => c.length <= 10)).toBe(true);
    expect(chunks.slice(0, 2)).toEqual(['aaaa\nbbbb\n', 'cccc\n']);
    expect(chunks.join('')).toBe(`aaaa\nbbbb\ncccc\n${'x'.repeat(25)}`);
  });

  it('never splits a surrogate pair', () => {
    const { chunks, lines } = chunker(5);
    lines.push('abcd😀efgh');
    lines.end();
    expect(chunks.join('')).toBe('abcd😀efgh');
    for (const chunk of chunks) expect(chunk).toBe(Buffer.from(chunk).toString());
  });
});
