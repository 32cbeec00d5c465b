/**
 * The `gaffer` command as it is installed (`bin: dist/main.js`): node on the build. The integration
 * suites' global setup (build-gaffer.ts) builds it from the sources once per test run, so a spawned
 * CLI starts in a fraction of the time the TypeScript loader takes on every start.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const GAFFER_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** argv of `gaffer`: the node running the tests, then the built entry point. */
export const GAFFER_COMMAND: readonly string[] = [process.execPath, GAFFER_MAIN];

/**
 * The environment of a spawned `gaffer`: this process's, without the GAFFER_* variables of whoever
 * runs the tests, logging warnings only, with the test's own variables over it.
 */
export function gafferEnv(variables: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  return { ...clean, GAFFER_LOG_LEVEL: 'warn', ...variables };
}

/** Runs `gaffer …` to its end (under gafferEnv); answers its exit code and what it printed (stdout, then stderr). */
export async function runGaffer(
  args: string[],
  variables: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [GAFFER_MAIN, ...args], {
      env: gafferEnv(variables),
      timeout: timeoutMs,
    });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}
