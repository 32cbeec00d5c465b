/** `npm run bench`: runs every benchmark in turn (or those named on the command line). */
import { spawnSync } from 'node:child_process';

const all = [
  'http',
  'guard',
  'kanban',
  'claims',
  'ws-fanout',
  'gateway',
  'ci-watch',
  'readiness',
  'panel',
  'usage',
];
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : all;
let failed = false;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`unknown benchmark "${name}"; known: ${all.join(', ')}`);
    process.exit(2);
  }
  const result = spawnSync('node', ['--import', 'tsx', new URL(`./${name}.ts`, import.meta.url).pathname], {
    stdio: 'inherit',
  });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
