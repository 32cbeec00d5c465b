import { describe, expect, it } from 'vitest';
import { isExcludedPath } from './exclusions.js';

const prefixes = ['/health', '/docs', '/ws/'];

describe('exclude_paths', () => {
  it.each([
    ['/health', true],
    ['/health?x=1', true],
    ['/docs/json', true],
    ['/ws/system', true],
    ['/ws', true],
    ['/docsx', false],
    ['/api/health', false],
    ['/docs/../.env', false],
    ['/docs/%2e%2e/.env', false],
  ])('%s excluded: %s', (url, excluded) => {
    expect(isExcludedPath(url, prefixes)).toBe(excluded);
  });
});
