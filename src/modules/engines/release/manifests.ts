/**
 * Version manifests: reading the current version (package.json, pyproject.toml, Cargo.toml,
 * VERSION, first that yields one) and rewriting a file of the canonical set from the old version
 * to the new. Manifests change only their own version field (a package-lock.json its root
 * package's two entries); any other file has every standalone occurrence replaced. Pure.
 */
import { cleanVersion } from './version.js';

/** Where the current version is read from, in order. */
export const VERSION_MANIFESTS = ['package.json', 'pyproject.toml', 'Cargo.toml', 'VERSION'] as const;

const TOML_VERSION = /^version\s*=\s*["']([^"']+)["']/m;

/** The version a manifest declares, or null when it declares none (or cannot be read). */
export function manifestVersion(path: string, text: string): string | null {
  const name = baseName(path);
  if (name === 'package.json') {
    try {
      const parsed = JSON.parse(text) as { version?: unknown };
      return typeof parsed.version === 'string' ? cleanVersion(parsed.version) : null;
    } catch {
      return null;
    }
  }
  if (name === 'pyproject.toml' || name === 'Cargo.toml') return cleanVersion(TOML_VERSION.exec(text)?.[1]);
  if (name === 'VERSION') return cleanVersion(text.split('\n')[0]);
  return null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `version` standing alone (`0.29.0`, `v0.29.0`, `gaffer@0.29.0`, `gaffer-0.29.0.tgz`), not part of
 * a longer version or word (`10.29.0`, `0.29.01`, `0.29.0.1`, `x0.29.0`).
 */
export function standaloneVersion(version: string, flags = 'g'): RegExp {
  return new RegExp(`(?<![0-9.A-UW-Za-uw-z_])${escapeRegExp(version)}(?![0-9A-Za-z_]|\\.[0-9])`, flags);
}

/** The same rule as a POSIX extended regex, for `git grep -E` (no lookarounds there). */
export function standaloneVersionEre(version: string): string {
  return `(^|[^0-9.A-UW-Za-uw-z_])${escapeRegExp(version)}($|[^0-9A-Za-z_.]|\\.($|[^0-9]))`;
}

function replaceJsonVersion(text: string, from: number, current: string, next: string): string {
  const pattern = new RegExp(`("version"\\s*:\\s*")${escapeRegExp(current)}(")`, 'g');
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  if (!match) return text;
  return `${text.slice(0, match.index)}${match[1]}${next}${match[2]}${text.slice(match.index + match[0].length)}`;
}

/** The file's text with `current` moved to `next`; unchanged when it holds no such version. */
export function bumpFileText(path: string, text: string, current: string, next: string): string {
  const name = baseName(path);
  if (name === 'package.json') return replaceJsonVersion(text, 0, current, next);
  if (name === 'package-lock.json') {
    const root = replaceJsonVersion(text, 0, current, next);
    const packages = /"packages"\s*:\s*\{\s*""\s*:\s*\{/.exec(root);
    return packages ? replaceJsonVersion(root, packages.index, current, next) : root;
  }
  if (name === 'pyproject.toml' || name === 'Cargo.toml') {
    return text.replace(
      new RegExp(`^(version\\s*=\\s*["'])${escapeRegExp(current)}(["'])`, 'm'),
      (_, open: string, close: string) => `${open}${next}${close}`,
    );
  }
  if (name === 'VERSION') {
    const [first = '', ...rest] = text.split('\n');
    return first.trim().replace(/^v/, '') === current
      ? [first.replace(current, next), ...rest].join('\n')
      : text;
  }
  return text.replace(standaloneVersion(current), next);
}

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}
