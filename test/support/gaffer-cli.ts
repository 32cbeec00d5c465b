/**
 * The `gaffer` command as it is installed (`bin: dist/main.js`): node on the build. The integration
 * suites' global setup (build-gaffer.ts) builds it from the sources once per test run, so a spawned
 * CLI starts in a fraction of the time the TypeScript loader takes on every start.
 */
import { fileURLToPath } from 'node:url';

export const GAFFER_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** argv of `gaffer`: the node running the tests, then the built entry point. */
export const GAFFER_COMMAND: readonly string[] = [process.execPath, GAFFER_MAIN];
