/**
 * Vitest global setup of the integration suites: builds what they run before any file starts —
 * dist/ from the sources (the TypeScript compiler's emit without its type check, which
 * `npm run typecheck` does), which the files load (run-built.ts) and every spawned `gaffer`
 * (gaffer-cli.ts) runs; and the panel (dist/panel) when its sources changed, which the app serves
 * at `/` (the browser tests, and the suites that request every route, `/` included); and this build's
 * migrated PGlite template (dist/pglite-template-…), which every new embedded store starts from.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildPanelIfStale } from '../../scripts/build-panel.js';
import { preparePgliteTemplate } from '../../src/platform/db/client.js';

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
  await Promise.all([buildPanelIfStale(), preparePgliteTemplate()]);
}
