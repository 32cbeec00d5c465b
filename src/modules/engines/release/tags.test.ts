import { describe, expect, it } from 'vitest';
import { byNewest, newestTagAt, type TagRef } from './tags.js';

const tag = (name: string, sha: string): TagRef => ({
  name,
  sha,
  version: /^v?\d+\.\d+\.\d+$/.test(name) ? name.replace(/^v/, '') : null,
});

describe('tags', () => {
  it('orders semantic versions by precedence before other tags', () => {
    const tags = [tag('v0.9.0', 'a'), tag('nightly', 'b'), tag('v0.10.0', 'c'), tag('v0.10.0-rc1', 'd')];
    expect([...tags].sort(byNewest).map((t) => t.name)).toEqual([
      'v0.10.0',
      'v0.9.0',
      'v0.10.0-rc1',
      'nightly',
    ]);
  });

  it('picks the newest tag on one of the given commits', () => {
    const tags = [tag('v1.0.0', 'a'), tag('v1.1.0', 'b'), tag('v1.2.0', 'c'), tag('also-b', 'b')];
    expect(newestTagAt(tags, new Set(['a', 'b']))).toBe('v1.1.0');
    expect(newestTagAt(tags, new Set(['z']))).toBeNull();
  });
});
