/**
 * Vitest global setup of the integration suites: builds what they run before any file starts —
 * dist/ from the sources (the TypeScript compiler's emit without its type check, which
 * `npm run typecheck` does), which the files load (run-built.ts) and every spawned `gaffer`
 * (gaffer-cli.ts) runs; and the panel (dist/panel) when its sources changed, which the app serves
 * at `/` (the browser tests, and the suites that request every route, `/` included); and this build's
 * migrated PGlite template (dist/pglite-template-…), which every new embedded store starts from.
 */
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildPanelIfStale } from '../../scripts/build-panel.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default async function buildGaffer(): Promise<void> {
  execFileSync(
    process.execPath,
    [
      'node_modules/typescript/bin/tsc',
      '-p',
      'tsconfig.build.json',
      '--noCheck',
      '--tsBuildInfoFile',
      'dist/.tsbuildinfo-tests',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  // From the build just emitted, in a process of its own (this setup's imports are resolved before dist/ exists).
  const template = promisify(execFile)(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "await (await import('./dist/platform/db/client.js')).preparePgliteTemplate();",
    ],
    { cwd: root },
  );
  await Promise.all([buildPanelIfStale(), template]);
}
