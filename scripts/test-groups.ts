/**
 * The test groups of test/support/test-groups.ts, for CI and for people:
 *
 *   tsx scripts/test-groups.ts list unit|mocking|integration|servers|browser
 *   tsx scripts/test-groups.ts check-store-log <log>   exit 1 when a file that opened stores is not
 *                                                       in the PostgreSQL + Redis pass (nor a browser test)
 *   tsx scripts/test-groups.ts slowest <vitest.json> [n]   the n slowest files of a run (default 15)
 *   tsx scripts/test-groups.ts failures <vitest.json>      the tests that failed, with their first message line
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { storeUsersLeftOut, type TestGroups, testGroups } from '../test/support/test-groups.js';

const root = fileURLToPath(new URL('..', import.meta.url));

interface VitestJson {
  testResults: {
    name: string;
    status: string;
    message?: string;
    startTime: number;
    endTime: number;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

const relative = (path: string) => (path.startsWith(root) ? path.slice(root.length) : path);
/**
 * A failure's telling lines: its first (a timeout's message starts with vitest's STACK_TRACE_ERROR
 * placeholder, skipped) and, when the assertion's own "expected …" comes later (after a custom
 * message), that one too.
 */
const firstLine = (text = '') => {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.includes('STACK_TRACE_ERROR'));
  const first = lines[0] ?? '';
  const expected = lines.find((line) => /\bexpected\b/.test(line));
  return (expected && expected !== first ? `${first} … ${expected}` : first).slice(0, 400);
};

const [command, argument, count] = process.argv.slice(2);
const groups = testGroups(root);

if (command === 'list' && argument && argument in groups) {
  console.log(groups[argument as keyof TestGroups].join('\n'));
} else if (command === 'check-store-log' && argument) {
  const missing = storeUsersLeftOut(root, argument, groups);
  if (missing.length) {
    console.error(
      `These files opened test stores but are not in the PostgreSQL + Redis pass (test/support/test-groups.ts):\n  ${missing.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log('every file that opened test stores, but the browser tests, is in the PostgreSQL + Redis pass');
} else if (command === 'slowest' && argument) {
  const run = JSON.parse(readFileSync(argument, 'utf8')) as VitestJson;
  const rows = run.testResults
    .map((file) => ({
      seconds: (file.endTime - file.startTime) / 1000,
      tests: file.assertionResults.length,
      path: relative(file.name),
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, Number(count ?? 15));
  for (const row of rows) {
    console.log(
      `${row.seconds.toFixed(1).padStart(7)} s  ${String(row.tests).padStart(4)} tests  ${row.path}`,
    );
  }
} else if (command === 'failures' && argument) {
  const run = JSON.parse(readFileSync(argument, 'utf8')) as VitestJson;
  for (const file of run.testResults) {
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    // A file that failed outside its tests (an import error, a hook) has no failed test to name.
    if (file.status === 'failed' && failed.length === 0) {
      console.log(`  ${relative(file.name)}: ${firstLine(file.message)}`);
    }
    for (const test of failed) {
      console.log(`  ${relative(file.name)} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
} else {
  console.error(
    'usage: test-groups.ts list <group> | check-store-log <log> | slowest <vitest.json> [n] | failures <vitest.json>',
  );
  process.exit(2);
}
