/**
 * Vitest global setup of the integration suites: builds dist/ from the sources (the TypeScript
 * compiler's emit without its type check, which `npm run typecheck` does) before any file runs, so
 * every spawned `gaffer` (test/support/gaffer-cli.ts) runs the code under test.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default function buildGaffer(): void {
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
}
