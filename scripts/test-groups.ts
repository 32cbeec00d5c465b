/**
 * The test groups of test/support/test-groups.ts, for CI and for people:
 *
 *   tsx scripts/test-groups.ts list unit|mocking|integration|servers|browser
 *   tsx scripts/test-groups.ts check-store-log <log>   exit 1 when a file that opened stores is not
 *                                                       in the PostgreSQL + Redis pass (nor a browser test)
 *   tsx scripts/test-groups.ts slowest <vitest.json> [n]   the n slowest files of a run (default 15)
 *   tsx scripts/test-groups.ts failures <vitest.json>      the tests that failed, with their messages (at most 30 lines each)
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
 * A failure's telling lines: its message (a timeout's starts with vitest's STACK_TRACE_ERROR
 * placeholder, skipped) up to the diff or the stack, at most 30 lines — a custom message that says
 * what a test was waiting on is read whole — and, when the assertion's own "expected …" comes
 * after it, that one too.
 */
const tellingLines = (text = '') => {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.includes('STACK_TRACE_ERROR'));
  const end = lines.findIndex((line) => /^(- Expected|\+ Received|❯ |at )/.test(line));
  const message = lines.slice(0, end === -1 ? lines.length : end);
  const told = message.slice(0, 30).map((line) => line.slice(0, 400));
  const expected = lines.find((line) => /\bexpected\b/.test(line));
  if (expected && !told.includes(expected.slice(0, 400))) told.push(expected.slice(0, 400));
  return told.join('\n      ');
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
      console.log(`  ${relative(file.name)}: ${tellingLines(file.message)}`);
    }
    for (const test of failed) {
      console.log(`  ${relative(file.name)} > ${test.fullName}: ${tellingLines(test.failureMessages?.[0])}`);
    }
  }
} else {
  console.error(
    'usage: test-groups.ts list <group> | check-store-log <log> | slowest <vitest.json> [n] | failures <vitest.json>',
  );
  process.exit(2);
}
