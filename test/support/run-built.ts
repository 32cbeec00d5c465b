/**
 * Integration files run the build of the sources (dist/, emitted by build-gaffer.ts before any file
 * runs) instead of the sources through Vitest's module runner: every import of a module under src/
 * resolves to its emitted twin, which Node loads natively (`server.deps.external`). Each isolated
 * file loads the whole server again: natively that took 1.7 s a file here, through the runner 2.6 s
 * with its transform cache warm and 5.8 s cold.
 * Test files and test helpers under src/ (not emitted) still run through the runner; what they
 * import resolves to dist/ like every other import, so one copy of each module is loaded.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin } from 'vitest/config';

export function runBuilt(root: string): Plugin {
  const src = join(root, 'src') + sep;
  const dist = join(root, 'dist') + sep;
  return {
    name: 'gaffer-run-built',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved?.id.startsWith(src)) return null;
      const path = resolved.id.split('?')[0] ?? resolved.id;
      if (!path.endsWith('.ts') || /\.test\.tsx?$/.test(path) || /(^|\/)test-[^/]*\.ts$/.test(path))
        return null;
      const built = join(dist, relative(src, path)).replace(/\.ts$/, '.js');
      if (!existsSync(built)) throw new Error(`${built} is missing: build-gaffer.ts emits dist/ first`);
      return built;
    },
  };
}

/** What `server.deps.external` matches: every emitted module is loaded by Node itself. */
export function builtModules(root: string): RegExp {
  return new RegExp(`^${(join(root, 'dist') + sep).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}
