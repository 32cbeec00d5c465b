import { describe, expect, it } from 'vitest';
import { CONTEXT_MAX_CHARS, citationsOf, contextOf } from './rag.js';
import type { ChunkHit } from './search.js';
import { fuse, snippetOf } from './search.js';
import { anyWordOf } from './service.js';

const hit = (ref: string, text = `text of ${ref}`): ChunkHit => ({
  id: Number(ref.slice(1)),
  source: 'doc',
  ref,
  project_id: null,
  title: `Title ${ref}`,
  url: `/api/docs/${ref}`,
  text,
  score: 1,
});

describe('retrieval rules', () => {
  it('fuses rankings so an item high in both beats one first in only one', () => {
    const fused = fuse([
      [1, 2, 3],
      [2, 4, 1],
    ]);
    expect(fused.map((f) => f.id)).toEqual([2, 1, 4, 3]);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61);
  });

  it('cuts a snippet around the first query word', () => {
    const text = `${'filler words here '.repeat(40)}the zanzibar cluster ${'more filler '.repeat(40)}`;
    const snippet = snippetOf(text, 'Zanzibar!');
    expect(snippet).toContain('zanzibar cluster');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(242);
    expect(snippetOf('short text', 'x')).toBe('short text');
  });

  it('numbers the context, keeps it within bounds, and cites only what the answer names', () => {
    const hits = [hit('d1'), hit('d2'), hit('d3')];
    const { text, used } = contextOf(hits);
    expect(text).toContain('[1] Title d1 (doc d1)\ntext of d1');
    expect(text).toContain('[3] Title d3');
    expect(used).toHaveLength(3);
    expect(citationsOf('See [3] and [1], again [3]; not [9].', used)).toEqual([
      { source: 'doc', ref: 'd3', title: 'Title d3', url: '/api/docs/d3' },
      { source: 'doc', ref: 'd1', title: 'Title d1', url: '/api/docs/d1' },
    ]);
    const big = contextOf([hit('d1', 'x'.repeat(8000)), hit('d2', 'y'.repeat(8000))]);
    expect(big.used).toHaveLength(1);
    expect(big.text.length).toBeLessThanOrEqual(CONTEXT_MAX_CHARS);
  });

  it('asks the index for any word of a question', () => {
    expect(anyWordOf('How do we rotate the certs?')).toBe('How or do or we or rotate or the or certs');
    expect(anyWordOf('?')).toBe('?');
  });
});
