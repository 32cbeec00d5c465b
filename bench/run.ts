/**
 * `npm run bench`: runs every benchmark in turn (or those named on the command line), collects the
 * one `{"bench": …}` record each prints into bench/results.json (with the machine it ran on and
 * each record with the Node.js it ran on; a partial run replaces only the records it ran) and
 * regenerates the README's benchmark table from it (scripts/bench-table.ts). The figures are for
 * Node.js 24, the line the suite runs on: `PATH="$(bash scripts/node24.sh):$PATH" npm run bench`;
 * on another Node the run says so first.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { createInterface } from 'node:readline';
import { writeBenchTable } from '../scripts/bench-table.js';
import type { BenchRecord } from './support.js';

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
  'scorecards',
  'search',
  'startup',
  'creates',
];

const RESULTS = new URL('./results.json', import.meta.url).pathname;
const scale = ['replicas', 'memory'];
const known = [...all, ...scale];

interface Results {
  machine: Record<string, unknown>;
  runs: Record<string, BenchRecord & { node: string; measured_at: string; run_seconds: number }>;
}

/** Runs one benchmark in its own process, echoing its output; answers its record, if it printed one. */
async function runOne(name: string): Promise<{ record?: BenchRecord; ok: boolean }> {
  const child = spawn('node', ['--import', 'tsx', new URL(`./${name}.ts`, import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let record: BenchRecord | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    console.log(line);
    if (line.startsWith('{"bench"')) record = JSON.parse(line) as BenchRecord;
  }
  const code: number | null =
    child.exitCode ?? (await new Promise((resolve) => child.once('exit', (c) => resolve(c))));
  return { record, ok: code === 0 };
}

function machine(): Record<string, unknown> {
  const cpu = cpus();
  return {
    cpu_model: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memory_gb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString().slice(0, 10),
  };
}

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : known;
for (const name of chosen) {
  if (!known.includes(name)) {
    console.error(`unknown benchmark "${name}"; known: ${known.join(', ')}`);
    process.exit(2);
  }
}
if (process.versions.node.split('.')[0] !== '24') {
  console.error(
    `NOTICE: benchmarking on Node ${process.version}; the figures in the README are for Node 24 ` +
      '(PATH="$(bash scripts/node24.sh):$PATH" npm run bench). Each record says which it ran on.',
  );
}
const results: Results = existsSync(RESULTS)
  ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Results)
  : { machine: {}, runs: {} };
let failed = false;
const started = performance.now();
for (const name of chosen) {
  const began = performance.now();
  const { record, ok } = await runOne(name);
  failed ||= !ok || !record?.target_met;
  if (record) {
    results.runs[name] = {
      ...record,
      node: process.version,
      measured_at: new Date().toISOString(),
      run_seconds: Math.round((performance.now() - began) / 1000),
    };
  } else console.error(`bench ${name} printed no result record`);
  // After each benchmark, so that a run cut short keeps what it measured.
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}
const full = known.every((name) => chosen.includes(name));
results.machine = {
  ...machine(),
  full_run_seconds: full
    ? Math.round((performance.now() - started) / 1000)
    : (results.machine.full_run_seconds ?? null),
};
writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
writeBenchTable(results);
console.error(`wrote ${RESULTS} and the README's benchmark table`);
process.exit(failed ? 1 : 0);
