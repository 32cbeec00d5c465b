/** Where a program runs from: itself when it names a path, else the first executable of that name on PATH. */
import { statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export function findProgram(program: string, path: string | undefined): string | null {
  if (program.includes('/')) return isExecutableFile(program) ? resolve(program) : null;
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, program);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    const found = statSync(path);
    return found.isFile() && (found.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
