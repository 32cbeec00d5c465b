import { describe, expect, it } from 'vitest';
import { branchNameProblem, normalizeRepoPath, repoPathProblem } from './file-request-rules.js';

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

describe('branchNameProblem', () => {
  it.each([['main'], ['feature/abc-123'], ['release/v1.2']])('accepts %s', (branch) => {
    expect(branchNameProblem(branch)).toBeNull();
  });

  it.each([
    [''],
    ['main:README.md'],
    ['main~1'],
    ['HEAD^'],
    ['a..b'],
    ['-delete'],
    ['with space'],
    ['x@{1}'],
    ['/main'],
    ['main/'],
    ['feature/.hidden'],
    ['refs.lock'],
    ['a[b'],
  ])('refuses %j', (branch) => {
    expect(branchNameProblem(branch)).not.toBeNull();
  });
});
