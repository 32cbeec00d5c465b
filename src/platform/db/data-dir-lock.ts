/**
 * PGlite is single-process: two Gaffer processes on one data directory would corrupt it. A pid file
 * created exclusively guards the directory; a file left by a dead process (kill -9) is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Another live process holds the data directory (a running `gaffer start`, say). */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: number,
  ) {
    super(`data directory ${dir} is in use by process ${holder}; stop it or set GAFFER_DATA_DIR`);
    this.name = 'DataDirInUseError';
  }
}

export function lockDataDir(dir: string): () => void {
  const path = join(dir, 'gaffer.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUseError(dir, holder);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock data directory ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
