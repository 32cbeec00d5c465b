/** The glob-overlap rule: exact intersection of two declared path patterns. */
import { describe, expect, it } from 'vitest';
import { expandBraces, globMatchesPath, globsOverlap, overlappingGlobs } from './glob-overlap.js';

describe('globsOverlap', () => {
  it.each([
    // equal
    ['src/api/users.ts', 'src/api/users.ts'],
    ['src/**/*.ts', 'src/**/*.ts'],
    // a glob matches the other's literal path
    ['src/api/*.ts', 'src/api/users.ts'],
    ['src/api/users.ts', 'src/*/users.ts'],
    ['src/api/user?.ts', 'src/api/users.ts'],
    ['src/api/[a-z]sers.ts', 'src/api/users.ts'],
    ['src/api/[!x]sers.ts', 'src/api/users.ts'],
    ['src/api/[^x]sers.ts', 'src/api/users.ts'],
    ['src/**', 'src/api/users.ts'],
    ['**', 'README.md'],
    ['**/*.md', 'README.md'],
    ['src/**/users.ts', 'src/users.ts'],
    // directory-prefix containment
    ['src/api/**', 'src/api/users.ts'],
    ['src/api', 'src/api/users.ts'],
    ['src/api/', 'src/api/v2/users.ts'],
    ['./src/api', '/src/api/users.ts'],
    ['src/*/migrations', 'src/db/migrations/0001.sql'],
    ['.github', '.github/workflows/ci.yml'],
    ['Makefile', 'Makefile'],
    ['src/api', 'src/api/**/*.ts'],
    ['src/api', 'src/*/users.ts'],
    // two globs that can match a common path
    ['src/**/*.ts', 'src/api/*'],
    ['src/*/users.ts', 'src/api/*.ts'],
    ['src/**/test/*.ts', 'src/api/**'],
    ['*.config.ts', 'vite.*'],
    ['src/a*b', 'src/*c*'],
    ['src/[a-m]*.ts', 'src/[k-z]*.ts'],
    ['src/[!a]*.ts', 'src/*b.ts'],
    ['src/**/*', 'src/**'],
    ['src/**/index.ts', 'src/modules/**/index.ts'],
    ['src/{api,web}/*.ts', 'src/web/app.ts'],
    ['src/**/*.{ts,tsx}', 'src/ui/App.tsx'],
    ['src/**/**/x.ts', 'src/x.ts'],
    ['src//api///x.ts', 'src/api/x.ts'],
    ['src/./api/x.ts', 'src/api/x.ts'],
  ])('%s overlaps %s (both ways)', (a, b) => {
    expect(globsOverlap(a, b)).toBe(true);
    expect(globsOverlap(b, a)).toBe(true);
  });

  it.each([
    ['src/api/users.ts', 'src/api/orders.ts'],
    ['src/api/**', 'src/web/**'],
    ['src/api/*.ts', 'src/api/users.js'],
    ['src/api/*', 'src/api/v2/users.ts'], // a wildcard segment does not reach deeper
    ['src/*.ts', 'src/api/users.ts'],
    ['src/*', 'src/api/users.ts'],
    ['src/api', 'src/apiary.ts'], // a directory is a whole segment, not a string prefix
    ['src/**/util.ts', 'src/api/users.ts'], // a name with an extension is a file: nothing is below it
    ['src/api/users.ts', 'src/api/users.ts/x.ts'],
    ['.eslintrc.json', '.eslintrc.json/x'],
    ['src/api/users.ts', 'src/api/users.tsx'],
    ['docs/**', 'src/**'],
    ['src/[a-m]*.ts', 'src/[n-z]*.ts'],
    ['src/[!a]', 'src/a'],
    ['src/[!a]*.ts', 'src/a*.ts'],
    ['src/user?.ts', 'src/users1.ts'],
    ['src/*.ts', 'src/*.js'],
    ['src/*a', 'src/*b'],
    ['src/a*', 'src/b*'],
    ['src/{api,web}/*.ts', 'src/cli/*.ts'],
    ['src/**/*.ts', 'docs/**/*.ts'],
    ['Src/api.ts', 'src/api.ts'], // case-sensitive, as git is
    ['src/\\*.ts', 'src/a.ts'], // an escaped star is a literal star
  ])('%s does not overlap %s (either way)', (a, b) => {
    expect(globsOverlap(a, b)).toBe(false);
    expect(globsOverlap(b, a)).toBe(false);
  });

  it('a blank pattern or a negation declares nothing', () => {
    expect(globsOverlap('', '**')).toBe(false);
    expect(globsOverlap('   ', 'src/a.ts')).toBe(false);
    expect(globsOverlap('!src/a.ts', 'src/a.ts')).toBe(false);
  });

  it('an unclosed class is a literal bracket', () => {
    expect(globsOverlap('src/[abc.ts', 'src/[abc.ts')).toBe(true);
    expect(globsOverlap('src/[abc.ts', 'src/a.ts')).toBe(false);
  });

  it('a leading ] in a class is a member of it', () => {
    expect(globsOverlap('src/[]a].ts', 'src/].ts')).toBe(true);
    expect(globsOverlap('src/[]a].ts', 'src/b.ts')).toBe(false);
  });

  it('stays fast on adversarial patterns', () => {
    const many = `${'*a'.repeat(40)}/${'**/'.repeat(20)}x`;
    const started = performance.now();
    expect(globsOverlap(many, `${'*b'.repeat(40)}/x`)).toBe(false);
    expect(globsOverlap(`${'{a,b}'.repeat(30)}.ts`, 'c.ts')).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('globMatchesPath', () => {
  it('matches a concrete path the way the pattern denotes it', () => {
    expect(globMatchesPath('src/api/**', 'src/api/users.ts')).toBe(true);
    expect(globMatchesPath('src/api', 'src/api/users.ts')).toBe(true);
    expect(globMatchesPath('src/*.ts', 'src/a.ts')).toBe(true);
    expect(globMatchesPath('src/*.ts', 'src/a/b.ts')).toBe(false);
  });

  it('takes the path literally, wildcard characters included', () => {
    expect(globMatchesPath('src/*.ts', 'src/*.ts')).toBe(true);
    expect(globMatchesPath('src/a.ts', 'src/*.ts')).toBe(false);
    expect(globMatchesPath('src/\\[x].ts', 'src/[x].ts')).toBe(true);
  });
});

describe('expandBraces', () => {
  it('expands alternatives in order, nested ones included', () => {
    expect(expandBraces('src/{a,b}/x.{ts,js}')).toEqual([
      'src/a/x.ts',
      'src/a/x.js',
      'src/b/x.ts',
      'src/b/x.js',
    ]);
    expect(expandBraces('{a,{b,c}}')).toEqual(['a', 'b', 'c']);
  });

  it('leaves single-option and escaped braces alone', () => {
    expect(expandBraces('src/{a}/x')).toEqual(['src/{a}/x']);
    expect(expandBraces('src/\\{a,b}/x')).toEqual(['src/\\{a,b}/x']);
    expect(expandBraces('{a}{b,c}')).toEqual(['{a}b', '{a}c']);
  });

  it('stops at 64 expansions', () => {
    expect(expandBraces('{a,b}'.repeat(10))).toHaveLength(64);
  });
});

describe('overlappingGlobs', () => {
  it('lists the other side’s patterns that overlap any of mine, in their order', () => {
    expect(
      overlappingGlobs(['src/api/**', 'docs/*.md'], ['web/**', 'docs/intro.md', 'src/api/users.ts', 'x']),
    ).toEqual(['docs/intro.md', 'src/api/users.ts']);
    expect(overlappingGlobs([], ['src/**'])).toEqual([]);
  });
});

describe('globsOverlap against brute force', () => {
  // A small reference matcher: the pattern as a regular expression over `path + '/'`.
  const tokenSource = (token: string) =>
    token === '*'
      ? '[^/]*'
      : token === '?'
        ? '[^/]'
        : token.startsWith('[')
          ? token.replace('!', '^')
          : token;
  const toRegExp = (segments: string[][]) => {
    const closed = segments.at(-1)!.every((t) => /^[a-z]$/.test(t)) ? [...segments, ['**']] : segments;
    const body = closed
      .map((seg) => (seg.join('') === '**' ? '(?:[^/]+/)*' : `${seg.map(tokenSource).join('')}/`))
      .join('');
    return new RegExp(`^${body}$`);
  };
  const alphabet = ['a', 'b', 'c'];
  const paths: string[] = [];
  const grow = (prefix: string, depth: number) => {
    if (depth === 0) return;
    for (const next of [...alphabet, '/']) {
      const candidate = prefix + next;
      if (candidate.startsWith('/') || candidate.includes('//')) continue;
      if (!candidate.endsWith('/')) paths.push(candidate);
      grow(candidate, depth - 1);
    }
  };
  grow('', 8); // long enough for any witness of two patterns this small

  let seed = 20260821;
  const random = (n: number) => {
    // mulberry32: deterministic, so a failure names a reproducible pair
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
  const tokens = ['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c', '*', '?', '[ab]', '[!a]'];
  const randomPattern = (): string[][] =>
    Array.from({ length: 1 + random(2) }, () =>
      random(8) === 0 ? ['**'] : Array.from({ length: 1 + random(2) }, () => tokens[random(tokens.length)]!),
    );

  it('agrees on 1000 random pairs of small patterns', () => {
    let overlaps = 0;
    for (let n = 0; n < 1000; n++) {
      const a = randomPattern();
      const b = randomPattern();
      const [ra, rb] = [toRegExp(a), toRegExp(b)];
      const witness = paths.find((p) => ra.test(`${p}/`) && rb.test(`${p}/`));
      if (witness) overlaps++;
      const text = (s: string[][]) => s.map((seg) => seg.join('')).join('/');
      expect({ a: text(a), b: text(b), overlap: globsOverlap(text(a), text(b)) }).toEqual({
        a: text(a),
        b: text(b),
        overlap: witness !== undefined,
      });
    }
    // Both answers occur often enough for the comparison to mean something.
    expect(overlaps).toBeGreaterThan(200);
    expect(overlaps).toBeLessThan(800);
  });
});
