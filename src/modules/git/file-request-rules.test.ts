import { describe, expect, it } from 'vitest';
import { normalizeRepoPath, repoPathProblem } from './file-request-rules.js';

describe('repoPathProblem', () => {
  it.each([['src/app.ts'], ['./README.md'], ['a..b/c...d.txt'], ['.github/workflows/ci.yml']])(
    'accepts %s',
    (path) => {
      expect(repoPathProblem(path)).toBeNull();
    },
  );

  it.each([
    ['', 'empty'],
    ['/etc/passwd', 'absolute'],
    ['../secrets', '".."'],
    ['src/../../etc/passwd', '".."'],
    ['src/..', '".."'],
    ['..\\etc\\passwd', 'backslash'],
    ['src\\app.ts', 'backslash'],
    ['\\\\server\\share', 'backslash'],
    ['C:/Windows/win.ini', 'drive'],
    ['README.md\u0000.png', 'NUL'],
    ['a\nb', 'control'],
    ['./', 'no file'],
    ['x'.repeat(5000), 'longer'],
  ])('refuses %j (%s)', (path, why) => {
    expect(repoPathProblem(path)).toContain(why);
  });

  it('normalizes ./ and doubled slashes away', () => {
    expect(normalizeRepoPath('./src//lib/./a.ts')).toBe('src/lib/a.ts');
  });
});
