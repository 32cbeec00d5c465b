import { describe, expect, it } from 'vitest';
import { branchNameProblem } from './branch-name.js';

describe('branchNameProblem', () => {
  it.each(['main', 'develop', 'v1.0', 'feature/backend/1a2b3c4d', 'fix-123', 'release/v1.2.3', 'a/b/c_d'])(
    'accepts %s',
    (name) => {
      expect(branchNameProblem(name)).toBeNull();
    },
  );

  it.each([
    '',
    'has space',
    'tab\there',
    'feature..x',
    '-leading',
    '/leading',
    'trailing/',
    'a//b',
    'ends.',
    'x.lock',
    '.hidden',
    'a/.hidden',
    'a@{1}',
    '@',
    'what?',
    'star*',
    'main:README.md',
    'tilde~1',
    'HEAD^',
    'br[acket',
    'back\\slash',
    'x'.repeat(251),
  ])('refuses %j', (name) => {
    expect(branchNameProblem(name)).not.toBeNull();
  });
});
