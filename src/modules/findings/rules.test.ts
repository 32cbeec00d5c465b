/** Findings rules: validation of raised findings and references, short ids, rendering. */
import { describe, expect, it } from 'vitest';
import {
  addressRefProblems,
  canWaive,
  compareOrigins,
  findingProblems,
  normalizeFinding,
  parseFindingRef,
  raiseProblems,
  renderFinding,
  repoPathProblem,
  resolveFindingRef,
} from './rules.js';

const good = { file: 'src/api.ts', line: 3, severity: 'major', expected: 'e', actual: 'a', fix: 'f' };
const fields = (problems: { field: string }[]) => problems.map((p) => p.field);

describe('repoPathProblem', () => {
  it.each(['src/api.ts', 'README.md', '.github/workflows/ci.yml', 'a/b..c/d.ts', 'x'])(
    'accepts %s',
    (file) => {
      expect(repoPathProblem(file)).toBeNull();
    },
  );

  it.each([
    ['', /empty/],
    ['/etc/passwd', /leading/],
    ['\\server\\x', /leading/],
    ['C:/x.ts', /drive/],
    ['../secret', /\.\./],
    ['src/../../x', /\.\./],
    ['src\\..\\x', /\.\./],
    ['src/a\u0000.ts', /control/],
    ['a'.repeat(301), /300/],
  ])('refuses %j', (file, message) => {
    expect(repoPathProblem(file)).toMatch(message);
  });
});

describe('findingProblems', () => {
  it('accepts a complete finding and one with only the required fields', () => {
    expect(findingProblems(good, 'f')).toEqual([]);
    expect(findingProblems({ severity: 'nit', expected: 'e', actual: 'a', fix: 'f' }, 'f')).toEqual([]);
  });

  it('names every bad field', () => {
    const problems = findingProblems(
      { file: '/abs', line: 0, severity: 'critical', expected: ' ', fix: 'x'.repeat(501), evidence: 5 },
      'findings[2]',
    );
    expect(fields(problems)).toEqual([
      'findings[2].severity',
      'findings[2].file',
      'findings[2].line',
      'findings[2].expected',
      'findings[2].actual',
      'findings[2].fix',
      'findings[2].evidence',
    ]);
  });

  it('a line needs a file', () => {
    expect(findingProblems({ ...good, file: null }, 'f')).toEqual([
      { field: 'f.line', message: 'needs a file' },
    ]);
  });

  it('caps every text field', () => {
    const long = (n: number) => 'x'.repeat(n + 1);
    const problems = findingProblems(
      {
        ...good,
        criterion: long(500),
        expected: long(300),
        actual: long(300),
        fix: long(500),
        evidence: long(2000),
      },
      'f',
    );
    expect(fields(problems).sort()).toEqual(['f.actual', 'f.criterion', 'f.evidence', 'f.expected', 'f.fix']);
  });

  it('refuses what is not an object', () => {
    expect(findingProblems('x', 'f')).toEqual([{ field: 'f', message: 'must be an object' }]);
  });
});

describe('raiseProblems', () => {
  it('accepts 1 to 10 findings from a known origin', () => {
    expect(raiseProblems('qa', 1, 'be-qa', [good])).toEqual([]);
    expect(raiseProblems('ceo', 3, 'ceo', Array(10).fill(good))).toEqual([]);
  });

  it('refuses none, too many, and bad round, origin or author', () => {
    expect(fields(raiseProblems('qa', 1, 'x', []))).toEqual(['findings']);
    expect(fields(raiseProblems('qa', 1, 'x', Array(11).fill(good)))).toEqual(['findings']);
    expect(fields(raiseProblems('dev', 0, '', [good]))).toEqual(['origin', 'round', 'author']);
    expect(fields(raiseProblems('qa', 1.5, 'x', [good, { ...good, severity: 'x' }]))).toEqual([
      'round',
      'findings[1].severity',
    ]);
  });
});

describe('normalizeFinding', () => {
  it('trims, drops ./ and turns blanks into null', () => {
    expect(
      normalizeFinding({
        ...good,
        file: ' ./src/a.ts ',
        expected: ' e ',
        criterion: '  ',
        evidence: undefined,
      }),
    ).toEqual({
      file: 'src/a.ts',
      line: 3,
      severity: 'major',
      criterion: null,
      expected: 'e',
      actual: 'a',
      fix: 'f',
      evidence: null,
    });
  });
});

describe('addressRefProblems', () => {
  it('checks commits and notes, not ids', () => {
    expect(addressRefProblems([{ finding_id: 'nonsense', commit: 'abc1234', note: 'done' }])).toEqual([]);
    expect(fields(addressRefProblems([{ finding_id: 'x', commit: 'xyz', note: 'n'.repeat(301) }]))).toEqual([
      'refs[0].commit',
      'refs[0].note',
    ]);
    expect(fields(addressRefProblems([{ commit: null }]))).toEqual(['refs[0].finding_id']);
    expect(fields(addressRefProblems('x'))).toEqual(['refs']);
  });
});

describe('parseFindingRef / resolveFindingRef', () => {
  const id = '1a2b3c4d-0000-4000-8000-000000000001';
  const twin = '1a2b3c4d-0000-4000-8000-000000000002';
  const other = '9f9f9f9f-0000-4000-8000-000000000003';

  it('reads full ids and prefixes of 8 or more, with an optional F- and brackets', () => {
    expect(parseFindingRef(id)).toEqual({ kind: 'full', value: id });
    expect(parseFindingRef('1A2B3C4D')).toEqual({ kind: 'prefix', value: '1a2b3c4d' });
    expect(parseFindingRef('[F-1a2b3c4d]')).toEqual({ kind: 'prefix', value: '1a2b3c4d' });
    expect(parseFindingRef('1a2b3c4d-00')).toEqual({ kind: 'prefix', value: '1a2b3c4d-00' });
    for (const bad of ['1a2b3c4', '1a2b3c4dx', 'zzzzzzzz', '1a2b3c4d0', `${id}0`]) {
      expect(parseFindingRef(bad)).toBeNull();
    }
  });

  it('resolves to exactly one id of the ledger, or says why not', () => {
    expect(resolveFindingRef(id, [id, twin, other])).toEqual({ id });
    expect(resolveFindingRef('9f9f9f9f', [id, twin, other])).toEqual({ id: other });
    expect(resolveFindingRef('1a2b3c4d', [id, twin, other])).toEqual({ problem: 'ambiguous' });
    expect(resolveFindingRef('1a2b3c4d-0000-4000-8000-0000000000', [id, twin])).toEqual({
      problem: 'ambiguous',
    });
    expect(resolveFindingRef('abcdef12', [id])).toEqual({ problem: 'not_found' });
    expect(resolveFindingRef('F-1', [id])).toEqual({ problem: 'invalid' });
  });
});

describe('renderFinding', () => {
  it('is one line with the short id, place, severity and the three parts', () => {
    const id = '1a2b3c4d-0000-4000-8000-000000000001';
    expect(renderFinding({ id, ...good })).toBe('[F-1a2b3c4d] src/api.ts:3 (major) — e → a → f');
    expect(renderFinding({ id, ...good, line: null })).toBe('[F-1a2b3c4d] src/api.ts (major) — e → a → f');
    expect(renderFinding({ id, ...good, file: null, line: null })).toBe(
      '[F-1a2b3c4d] (general) (major) — e → a → f',
    );
  });
});

describe('canWaive and compareOrigins', () => {
  it('waives minor and nit only', () => {
    expect(['blocker', 'major', 'minor', 'nit'].map(canWaive)).toEqual([false, false, true, true]);
  });

  it('orders origins along the pipeline, unknown ones last', () => {
    expect(['zeta', 'ceo', 'pm', 'qa', 'pr_gate'].sort(compareOrigins)).toEqual([
      'qa',
      'pr_gate',
      'pm',
      'ceo',
      'zeta',
    ]);
  });
});
