/**
 * Where an agent CLI is installed, and what the agent sandbox must bind for it to run there. A new
 * user's CLI is rarely under /usr: Claude Code's installer puts `~/.local/bin/claude`, a link to
 * one native binary in `~/.local/share/claude/versions/`; npm prefixes and nvm put `bin/<cli>`
 * links to `lib/node_modules/<pkg>/…` under the home, run by a `node` of their own. So the program
 * a run starts is looked up on the run's PATH, its links followed, and its install bound
 * read-only:
 * - in a `node_modules` tree: the npm package root (with its nested node_modules); the whole tree
 *   when a dependency it declares is not nested in it (hoisted by a local install, pnpm, bun);
 * - a script elsewhere: the nearest folder above it holding a package.json, else its folder;
 * - a native binary: its folder;
 * - a script's interpreter (`#!/usr/bin/env node`, nvm's `node` under the home): the same way,
 *   and the folder the script reaches it through when that is a link outside what is bound.
 * The program is then started by its real path when the name on the PATH is a link outside what
 * the sandbox shows (not by binding the real file at the link's path: Node resolves a script's
 * imports from where the script is, and an npm `bin` link's target imports its siblings).
 * A program in the run's own files (its worktree: the repository's content) is never followed.
 * A bind that is, or holds, a forbidden path (the user's home, the data directory, Gaffer's
 * checkout) or `/` is refused; the answer then names the one path to add to
 * GAFFER_AGENT_SANDBOX_READ instead: the file itself, which exposes nothing beside it.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { findProgram } from './find-program.js';
import { isWithin } from './sandbox.js';

export interface CliPlaces {
  /** Never bound, nor any directory holding one: the home, the data directory, Gaffer's checkout. */
  forbidden: readonly string[];
  /** What the sandbox shows anyway: the system, Gaffer's install, GAFFER_AGENT_SANDBOX_READ. */
  visible: readonly string[];
  /** What each forbidden path is, for the refusal ("the home of the server's user"). */
  labels?: ReadonlyMap<string, string>;
  /**
   * Where the run's own, untrusted files lie (its worktree, its home, its run directory): a
   * program there is taken as it is, never followed — a link or a `#!` line the repository wrote
   * must not choose what of the host is bound.
   */
  untrusted?: readonly string[];
}

/** The program can run in the sandbox once `bind` is bound read-only and it is started as `argv0`. */
export interface CliBound {
  /** Where the PATH has it. */
  found: string;
  /** Its real path (links followed). */
  real: string;
  /** What to bind read-only besides what is visible already (often nothing). */
  bind: string[];
  /** The program as named, or its real path when the name leads through what is not bound. */
  argv0: string;
}

/** No directory of the program can be bound: the operator adds `pathToAdd` (a file) by hand. */
export interface CliRefused {
  found: string;
  real: string;
  /** Why, naming the path. */
  refused: string;
  /** The path to add to GAFFER_AGENT_SANDBOX_READ. */
  pathToAdd: string;
}

export type CliInstall = CliBound | CliRefused;

export const isRefused = (install: CliInstall): install is CliRefused => 'refused' in install;

/** What the operator does about a refusal: the one path to add (or a folder of the CLI's own). */
export const sandboxReadRemedy = (pathToAdd: string) =>
  `add ${pathToAdd} to GAFFER_AGENT_SANDBOX_READ and restart Gaffer (that file alone is then bound), or move it into a folder of its own, which the sandbox binds by itself`;

/** How `program` (looked up on `path`) can run in the sandbox; null when it is not on the PATH. */
export function installDirOf(
  program: string,
  path: string | undefined,
  places: CliPlaces,
): CliInstall | null {
  const found = findProgram(program, path);
  if (!found) return null;
  const real = realpathSync(found);
  if (places.untrusted?.some((root) => isWithin(found, root)))
    return { found, real, bind: [], argv0: program };
  const bind: string[] = [];
  const seen = [...places.visible, ...(places.untrusted ?? [])];
  const shown = (file: string) => [...seen, ...bind].some((root) => isWithin(file, root));
  if (!shown(real)) {
    const own = installOf(real, places);
    if (typeof own !== 'string') {
      const what = program === real ? real : `${program} (installed at ${real})`;
      return {
        found,
        real,
        refused: `the agent sandbox cannot bind ${what}: ${own.refused}`,
        pathToAdd: real,
      };
    }
    bind.push(own);
  }
  const named = interpreterOf(real, path);
  if (named) {
    const runner = realpathSync(named);
    if (!shown(runner)) {
      const own = installOf(runner, places);
      if (typeof own !== 'string') {
        return {
          found,
          real,
          refused: `the agent sandbox cannot bind ${runner}, the interpreter of ${program} (its #! line): ${own.refused}`,
          pathToAdd: runner,
        };
      }
      bind.push(own);
    }
    // The kernel (or `env`) reaches the interpreter by the name the script gives: that must resolve too.
    if (!shown(named)) {
      if (!bindable(dirname(named), places.forbidden)) {
        return {
          found,
          real,
          refused: `${program} reaches its interpreter through ${named}, a link in a folder the agent sandbox cannot bind`,
          pathToAdd: named,
        };
      }
      bind.push(dirname(named));
    }
  }
  const argv0 = found === real || (shown(found) && bind.length === 0) ? program : real;
  return { found, real, bind, argv0 };
}

/** The directory to bind for the file at real path `real`, or why none can be. */
function installOf(real: string, places: CliPlaces): string | { refused: string } {
  const dir = packageRoot(real, places.forbidden) ?? dirname(real);
  if (bindable(dir, places.forbidden)) return dir;
  const exposed = dir === '/' ? null : places.forbidden.find((hidden) => isWithin(resolve(hidden), dir));
  if (!exposed) return { refused: 'its folder is the whole file system' };
  const label = places.labels?.get(exposed);
  if (resolve(exposed) === dir)
    return { refused: `its folder ${dir} is ${label ?? 'kept out of every sandbox'}` };
  return { refused: `its folder ${dir} holds ${exposed}${label ? `, ${label}` : ''}` };
}

const bindable = (dir: string, forbidden: readonly string[]) =>
  dir !== '/' && !forbidden.some((hidden) => isWithin(resolve(hidden), dir));

/**
 * The package the file belongs to, if any: under `node_modules`, the package the path names (and
 * the whole tree when what it depends on is not nested in it); a script elsewhere, the nearest
 * folder above it holding a package.json, never climbing to a forbidden folder or one holding one.
 */
function packageRoot(real: string, forbidden: readonly string[]): string | null {
  const parts = real.split(sep);
  const last = parts.lastIndexOf('node_modules');
  const depth = parts[last + 1]?.startsWith('@') ? 3 : 2;
  if (last > 0 && last + depth < parts.length) {
    const root = parts.slice(0, last + depth).join(sep);
    if (existsSync(join(root, 'package.json'))) {
      return dependenciesNested(root) ? root : parts.slice(0, parts.indexOf('node_modules') + 1).join(sep);
    }
  }
  if (!isScript(real)) return null;
  for (let dir = dirname(real); bindable(dir, forbidden); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return null;
}

/** Every dependency the package declares lies in its own node_modules (a global npm install). */
function dependenciesNested(root: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    return Object.keys(manifest.dependencies ?? {}).every((name) =>
      existsSync(join(root, 'node_modules', name)),
    );
  } catch {
    return true;
  }
}

/** The first line of the file, when it is a `#!` line. */
function shebangOf(file: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(256);
    const read = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, read).toString('latin1');
    return text.startsWith('#!') ? (text.slice(2).split('\n')[0] ?? '').trim() : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

const isScript = (file: string) => shebangOf(file) !== null;

/**
 * Where the script's interpreter is, as its `#!` line reaches it: an absolute path, or for
 * `/usr/bin/env [-S] name`, the first `name` on the run's PATH. Null for a binary, or an
 * interpreter that is not there (the run fails the same way outside the sandbox).
 */
function interpreterOf(file: string, path: string | undefined): string | null {
  const line = shebangOf(file);
  if (!line) return null;
  const [first, ...rest] = line.split(/\s+/);
  if (!first || !isAbsolute(first)) return null;
  if (basename(first) !== 'env') return existsSync(first) ? first : null;
  const name = rest.find((word) => !word.startsWith('-') && !word.includes('='));
  return name ? findProgram(name, path) : null;
}
