/**
 * The throwaway directories of the probes: one fresh `probe-*` folder per probe under
 * `<dataDir>/tmp/dep-update/` (the clone, the command's HOME and TMPDIR all inside it), removed
 * whole afterwards — also when a tool left read-only folders behind (Go's module cache does) —
 * and, at the start of a pass, whatever a crashed process left there.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const PREFIX = 'probe-';

/** `<dataDir>/tmp/dep-update`: created only when a probe runs. */
export const probeRoot = (dataDir: string): string => join(dataDir, 'tmp', 'dep-update');

export function makeProbeDir(root: string): string {
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, PREFIX));
}

/** Removes a probe directory and everything in it, read-only folders included. */
export function removeProbeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    makeWritable(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  }
}

/** Removes the probe directories a previous process left behind (it died mid-probe). */
export function removeLeftovers(root: string): void {
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    if (name.startsWith(PREFIX)) removeProbeDir(join(root, name));
  }
}

/** Gives the owner write and search permission on every folder of the tree (links are not followed). */
function makeWritable(dir: string): void {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dir);
  } catch {
    return;
  }
  if (!stat.isDirectory()) return;
  try {
    chmodSync(dir, stat.mode | 0o700);
  } catch {
    return;
  }
  for (const name of readdirSync(dir)) makeWritable(join(dir, name));
}
