/**
 * The test groups of test/support/test-groups.ts, for CI and for people:
 *
 *   tsx scripts/test-groups.ts list unit|mocking|integration|servers
 *   tsx scripts/test-groups.ts check-store-log <log>   exit 1 when a file that opened stores is not
 *                                                       in the PostgreSQL + Redis pass
 *   tsx scripts/test-groups.ts slowest <vitest.json> [n]   the n slowest files of a run (default 15)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { storeUsersLeftOut, type TestGroups, testGroups } from '../test/support/test-groups.js';

const root = fileURLToPath(new URL('..', import.meta.url));

interface VitestJson {
  testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[];
}

const [command, argument, count] = process.argv.slice(2);
const groups = testGroups(root);

if (command === 'list' && argument && argument in groups) {
  console.log(groups[argument as keyof TestGroups].join('\n'));
} else if (command === 'check-store-log' && argument) {
  const missing = storeUsersLeftOut(root, argument, groups.servers);
  if (missing.length) {
    console.error(
      `These files opened test stores but are not in the PostgreSQL + Redis pass (test/support/test-groups.ts):\n  ${missing.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log('every file that opened test stores is in the PostgreSQL + Redis pass');
} else if (command === 'slowest' && argument) {
  const run = JSON.parse(readFileSync(argument, 'utf8')) as VitestJson;
  const rows = run.testResults
    .map((file) => ({
      seconds: (file.endTime - file.startTime) / 1000,
      tests: file.assertionResults.length,
      path: file.name.startsWith(root) ? file.name.slice(root.length) : file.name,
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, Number(count ?? 15));
  for (const row of rows) {
    console.log(
      `${row.seconds.toFixed(1).padStart(7)} s  ${String(row.tests).padStart(4)} tests  ${row.path}`,
    );
  }
} else {
  console.error('usage: test-groups.ts list <group> | check-store-log <log> | slowest <vitest.json> [n]');
  process.exit(2);
}
