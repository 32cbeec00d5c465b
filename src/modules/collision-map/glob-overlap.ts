/**
 * Do two declared path globs overlap — is there a repository path both could touch?
 *
 * The rule (pure, no I/O):
 * - A pattern denotes a set of repo-relative paths. `*` matches any run of characters inside one
 *   path segment, `?` one character, `[abc]` / `[a-z]` / `[!x]` (or `[^x]`) one character of a class,
 *   `{a,b}` alternatives (expanded, at most 64), `\x` the literal `x`, and a whole segment `**` any
 *   number of segments, none included. Matching is case-sensitive (git paths are) and dotfiles get
 *   no special treatment (a collision map errs towards reporting).
 * - Directory containment: a pattern that ends in a slash (`src/api/`), or whose last segment is
 *   a plain name without a file extension (`src/api`, `.github`, `src/*\/migrations`), names a
 *   directory (or a file), so it also denotes everything below it — as if `/**` followed. A last
 *   segment with an extension (`src/api/users.ts`, `.eslintrc.json`) names a file: it contains
 *   nothing, so `src/**\/util.ts` does not reach into it. A pattern ending in a wildcard segment
 *   (`src/api/*`) means exactly what a glob means: it does not reach `src/api/v2/users.ts`.
 * - Two patterns overlap when the sets they denote share at least one path. That covers equal
 *   patterns, a glob matching the other's literal path, directory-prefix containment
 *   (`src/api/**` or `src/api` vs `src/api/users.ts`) and two globs that can match a common path
 *   (`src/**\/*.ts` vs `src/api/*`: `src/api/x.ts`). It is decided exactly, by intersecting the two
 *   patterns as automata (segment by segment, then character by character), never by sampling.
 * - Normalisation: surrounding blanks, leading `./` and `/`, empty and `.` segments are dropped.
 *   A blank pattern, or a negation (`!…`), declares nothing and overlaps nothing. Extglobs
 *   (`+(a|b)`) and POSIX classes are not special: their characters are taken literally.
 */

/** One character class: the listed ranges (code points), or everything but them. */
interface CharSet {
  readonly negated: boolean;
  readonly ranges: ReadonlyArray<readonly [number, number]>;
}

type Token = { readonly kind: 'star' } | { readonly kind: 'char'; readonly set: CharSet };
type Segment =
  | { readonly kind: 'globstar' }
  | { readonly kind: 'pattern'; readonly tokens: readonly Token[] };

/** A pattern parsed for matching: one alternative per brace expansion, each a list of segments. */
export interface CompiledGlob {
  readonly source: string;
  readonly alternatives: ReadonlyArray<readonly Segment[]>;
}

export const MAX_BRACE_EXPANSIONS = 64;
const ANY_CHAR: CharSet = { negated: true, ranges: [] };
const GLOBSTAR: Segment = { kind: 'globstar' };

export function compileGlob(pattern: string): CompiledGlob {
  const trimmed = pattern.trim();
  if (trimmed === '' || trimmed.startsWith('!')) return { source: pattern, alternatives: [] };
  const alternatives = expandBraces(trimmed)
    .map((alternative) => parsePath(alternative))
    .filter((segments) => segments.length > 0);
  return { source: pattern, alternatives };
}

/** True when some path is denoted by both patterns (strings or compiled). */
export function globsOverlap(a: string | CompiledGlob, b: string | CompiledGlob): boolean {
  const left = typeof a === 'string' ? compileGlob(a) : a;
  const right = typeof b === 'string' ? compileGlob(b) : b;
  return left.alternatives.some((x) => right.alternatives.some((y) => segmentsIntersect(x, y)));
}

/** True when the pattern denotes the given concrete path (a path is just a glob without wildcards). */
export function globMatchesPath(pattern: string | CompiledGlob, path: string): boolean {
  const glob = typeof pattern === 'string' ? compileGlob(pattern) : pattern;
  const segments = parsePath(escapeGlob(path.trim()), { directoryClosure: false });
  return segments.length > 0 && glob.alternatives.some((alt) => segmentsIntersect(alt, segments));
}

/** `theirs` patterns that overlap at least one of `mine`, in their declared order. */
export function overlappingGlobs(mine: readonly string[], theirs: readonly string[]): string[] {
  const compiledMine = mine.map(compileGlob);
  return theirs.filter((pattern) => {
    const compiled = compileGlob(pattern);
    return compiledMine.some((m) => globsOverlap(m, compiled));
  });
}

function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}]/g, (c) => `\\${c}`);
}

// ── Parsing ─────────────────────────────────────────────────────────────────────────────────

/** Splits `a/{b,c}/d` into `a/b/d`, `a/c/d` (nested braces too); `{x}` without a comma stays literal. */
export function expandBraces(pattern: string): string[] {
  const results: string[] = [];
  // Depth first, so the work stays bounded by the cap even for many consecutive groups.
  const pending = [pattern];
  while (pending.length > 0 && results.length < MAX_BRACE_EXPANSIONS) {
    const current = pending.pop()!;
    const group = firstBraceGroup(current);
    if (!group) {
      results.push(current);
      continue;
    }
    const head = current.slice(0, group.open);
    const tail = current.slice(group.close + 1);
    for (const option of group.options.toReversed()) pending.push(head + option + tail);
  }
  return results;
}

function firstBraceGroup(text: string): { open: number; close: number; options: string[] } | null {
  for (let open = 0; open < text.length; open++) {
    if (text[open] === '\\') {
      open++;
      continue;
    }
    if (text[open] !== '{') continue;
    let depth = 0;
    let start = open + 1;
    const options: string[] = [];
    for (let i = open; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') {
        i++;
      } else if (c === '{') {
        depth++;
      } else if (c === '}') {
        depth--;
        if (depth === 0) {
          options.push(text.slice(start, i));
          if (options.length > 1) return { open, close: i, options };
          break; // `{x}`: literal braces, keep looking after this one
        }
      } else if (c === ',' && depth === 1) {
        options.push(text.slice(start, i));
        start = i + 1;
      }
    }
  }
  return null;
}

function parsePath(pattern: string, options: { directoryClosure?: boolean } = {}): Segment[] {
  const raw = pattern.replace(/^(\.\/|\/)+/, '');
  const namesDirectory = raw.endsWith('/');
  const segments: Segment[] = [];
  for (const part of splitSegments(raw)) {
    if (part === '' || part === '.') continue;
    const segment: Segment = part === '**' ? GLOBSTAR : { kind: 'pattern', tokens: parseSegment(part) };
    if (segment.kind === 'globstar' && segments.at(-1)?.kind === 'globstar') continue;
    segments.push(segment);
  }
  const last = segments.at(-1);
  if (options.directoryClosure !== false && last && (namesDirectory || isDirectoryName(last))) {
    segments.push(GLOBSTAR);
  }
  return segments;
}

/** Splits on unescaped slashes. */
function splitSegments(path: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === '\\' && i + 1 < path.length) {
      current += c + path[i + 1];
      i++;
    } else if (c === '/') {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

/** A wildcard-free name without a file extension (leading dots do not make one: `.github`). */
function isDirectoryName(segment: Segment): boolean {
  if (segment.kind !== 'pattern') return false;
  let name = '';
  for (const token of segment.tokens) {
    if (token.kind !== 'char' || token.set.negated || token.set.ranges.length !== 1) return false;
    const [lo, hi] = token.set.ranges[0]!;
    if (lo !== hi) return false;
    name += String.fromCodePoint(lo);
  }
  return !/\.[^.]+$/.test(name.replace(/^\.+/, ''));
}

function literal(c: string): Token {
  const code = c.codePointAt(0)!;
  return { kind: 'char', set: { negated: false, ranges: [[code, code]] } };
}

function parseSegment(text: string): Token[] {
  const tokens: Token[] = [];
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) {
      tokens.push(literal(chars[++i]!));
    } else if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'char', set: ANY_CHAR });
    } else if (c === '[') {
      const parsed = parseClass(chars, i);
      if (parsed) {
        tokens.push({ kind: 'char', set: parsed.set });
        i = parsed.end;
      } else {
        tokens.push(literal(c));
      }
    } else {
      tokens.push(literal(c));
    }
  }
  return tokens;
}

/** `[…]` starting at `start`; null when it never closes (then `[` is literal). */
function parseClass(chars: string[], start: number): { set: CharSet; end: number } | null {
  let i = start + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const ranges: Array<[number, number]> = [];
  let first = true;
  for (; i < chars.length; i++) {
    let c = chars[i]!;
    if (c === ']' && !first) return { set: { negated, ranges }, end: i };
    first = false;
    if (c === '\\' && i + 1 < chars.length) c = chars[++i]!;
    const lo = c.codePointAt(0)!;
    if (chars[i + 1] === '-' && i + 2 < chars.length && chars[i + 2] !== ']') {
      let hiChar = chars[i + 2]!;
      i += 2;
      if (hiChar === '\\' && i + 1 < chars.length) hiChar = chars[++i]!;
      const hi = hiChar.codePointAt(0)!;
      ranges.push(lo <= hi ? [lo, hi] : [hi, lo]);
    } else {
      ranges.push([lo, lo]);
    }
  }
  return null;
}

// ── Intersection ────────────────────────────────────────────────────────────────────────────

/** Is there a sequence of (non-empty) segment names matched by both segment lists? */
function segmentsIntersect(a: readonly Segment[], b: readonly Segment[]): boolean {
  const seen = new Set<number>();
  const width = b.length + 1;
  const visit = (i: number, j: number): boolean => {
    const key = i * width + j;
    if (seen.has(key)) return false;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const x = a[i];
    const y = b[j];
    if (x?.kind === 'globstar' && visit(i + 1, j)) return true; // `**` matching no segment
    if (y?.kind === 'globstar' && visit(i, j + 1)) return true;
    if (!x || !y) return false;
    if (x.kind === 'globstar' && y.kind === 'globstar') return false; // both skipping is covered above
    if (x.kind === 'globstar') return visit(i, j + 1); // `**` absorbs the segment y names
    if (y.kind === 'globstar') return visit(i + 1, j);
    return segmentPatternsIntersect(x.tokens, y.tokens) && visit(i + 1, j + 1);
  };
  return visit(0, 0);
}

/** Is there a non-empty segment name matched by both token lists? */
function segmentPatternsIntersect(a: readonly Token[], b: readonly Token[]): boolean {
  // Only all-star patterns accept the empty name, and they accept every name too.
  if (a.every((t) => t.kind === 'star') && b.every((t) => t.kind === 'star')) return true;
  const seen = new Set<number>();
  const width = b.length + 1;
  const visit = (p: number, q: number): boolean => {
    const key = p * width + q;
    if (seen.has(key)) return false;
    seen.add(key);
    if (p === a.length && q === b.length) return true;
    const x = a[p];
    const y = b[q];
    if (x?.kind === 'star' && visit(p + 1, q)) return true;
    if (y?.kind === 'star' && visit(p, q + 1)) return true;
    if (!x || !y) return false;
    if (x.kind === 'star' && y.kind === 'star') return false;
    if (x.kind === 'star') return visit(p, q + 1); // the star eats the character y stands for
    if (y.kind === 'star') return visit(p + 1, q);
    return charSetsIntersect(x.set, y.set) && visit(p + 1, q + 1);
  };
  return visit(0, 0);
}

function charSetsIntersect(a: CharSet, b: CharSet): boolean {
  if (a.negated && b.negated) return true; // two finite exclusions never cover every character
  if (a.negated) return charSetsIntersect(b, a);
  if (!b.negated) {
    return a.ranges.some(([lo, hi]) => b.ranges.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi));
  }
  return a.ranges.some((range) => !covered(range, b.ranges));
}

/** Does the union of `by` cover every code point of `range`? */
function covered(range: readonly [number, number], by: ReadonlyArray<readonly [number, number]>): boolean {
  let next = range[0];
  for (const [lo, hi] of [...by].sort((x, y) => x[0] - y[0])) {
    if (lo > next) break;
    if (hi >= next) next = hi + 1;
    if (next > range[1]) return true;
  }
  return next > range[1];
}
