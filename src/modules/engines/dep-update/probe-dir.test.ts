import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../../../platform/git/test-support.js';
import { makeProbeDir, probeRoot, removeLeftovers, removeProbeDir } from './probe-dir.js';

describe('probe directories', () => {
  const dirs = tempDirs('gaffer-probe-dir-');
  afterAll(() => dirs.cleanup());

  it('lives under <dataDir>/tmp/dep-update, made only on demand', () => {
    const dataDir = dirs.make();
    const root = probeRoot(dataDir);
    expect(root).toBe(join(dataDir, 'tmp', 'dep-update'));
    expect(existsSync(root)).toBe(false);
    const dir = makeProbeDir(root);
    expect(dir.startsWith(join(root, 'probe-'))).toBe(true);
    writeFileSync(join(dir, 'file'), 'x');
    removeProbeDir(dir);
    expect(readdirSync(root)).toEqual([]);
  });

  it('clears what a crashed process left, and nothing else', () => {
    const root = probeRoot(dirs.make());
    removeLeftovers(root); // no root yet: nothing to do
    const left = makeProbeDir(root);
    mkdirSync(join(left, 'repo', '.git'), { recursive: true });
    writeFileSync(join(root, 'notes.txt'), 'kept');
    removeLeftovers(root);
    expect(readdirSync(root)).toEqual(['notes.txt']);
  });
});
