/**
 * Real commands and checks for the dependency-update suite: a small node tool a project's
 * `dep_update_command` runs in the probe's clone, and a hash of a directory tree (every file's
 * path, mode and bytes) to prove a repository was left byte-identical.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * `node tool.mjs <op> <args…> [+ <op> <args…>]…`, relative paths against the cwd (the clone):
 * - `write <path> <text>`: writes the file (folders created);
 * - `record <file> <args…>`: appends `{argv, env, cwd}` as one JSON line to the (absolute) file;
 * - `fail`: says "registry unreachable" on stderr and exits 3;
 * - `hang <file>`: starts a `sleep` grandchild, writes both pids to the file, and never ends.
 */
const TOOL = `
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const ops = [];
for (const word of process.argv.slice(2)) {
  if (word === '+') ops.push([]);
  else if (ops.length === 0) ops.push([word]);
  else ops.at(-1).push(word);
}
for (const [op, ...args] of ops) {
  if (op === 'write') {
    mkdirSync(dirname(args[0]), { recursive: true });
    writeFileSync(args[0], args[1] ?? '');
  } else if (op === 'record') {
    const line = { argv: args.slice(1), env: process.env, cwd: process.cwd() };
    appendFileSync(args[0], JSON.stringify(line) + '\\n');
  } else if (op === 'fail') {
    console.error('registry unreachable');
    process.exit(3);
  } else if (op === 'hang') {
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    writeFileSync(args[0], JSON.stringify([process.pid, child.pid]));
    setInterval(() => {}, 1000);
  } else {
    console.error('unknown op ' + op);
    process.exit(64);
  }
}
`;

/** Writes the tool into `dir`; answers the command prefix that runs it (`<node> <dir>/tool.mjs`). */
export function writeDepTool(dir: string): string {
  const path = join(dir, 'tool.mjs');
  writeFileSync(path, TOOL);
  return `${process.execPath} ${path}`;
}

export interface RecordedRun {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

/** The runs a `record` op appended to `file` (none when it never ran). */
export function recordedRuns(file: string): RecordedRun[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordedRun);
}

/** A sha256 over every entry under `dir`: relative path, type, mode and content (or link target). */
export function hashTree(dir: string): string {
  const hash = createHash('sha256');
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const stat = lstatSync(path);
      hash.update(`${relative(dir, path)}\0${stat.mode}\0`);
      if (stat.isDirectory()) walk(path);
      else if (stat.isSymbolicLink()) hash.update(readlinkSync(path));
      else hash.update(readFileSync(path));
      hash.update('\0');
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** Whether a process still runs (zombies count as gone). */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
