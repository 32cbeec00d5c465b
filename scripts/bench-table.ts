/**
 * The benchmark table of docs/benchmarks.md, generated from bench/results.json: one row per ratio each benchmark
 * measured against its in-run baseline (or its target when it has none), and the machine. Rewrites
 * the block between `<!-- bench:start -->` and `<!-- bench:end -->`. `npm run bench` calls it;
 * `npx tsx scripts/bench-table.ts` regenerates the block from the committed results alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TABLE_FILE = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const RESULTS = fileURLToPath(new URL('../bench/results.json', import.meta.url));
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

interface Ratio {
  name: string;
  value: number;
  baseline: string;
  op: '>=' | '<=';
  limit: number;
  met: boolean;
}

interface Results {
  machine: Record<string, unknown>;
  runs: Record<string, { target: string; target_met: boolean; ratios?: Ratio[]; measured_at?: string }>;
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const verdict = (met: boolean) => (met ? 'met' : '**not met**');

export function benchTable(results: Results): string {
  const rows = [
    '| Benchmark | Ratio | Measured | Baseline (same run) | Target | |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, run] of Object.entries(results.runs)) {
    const ratios = run.ratios ?? [];
    if (ratios.length === 0) {
      rows.push(`| \`${name}\` | — | — | — | ${cell(run.target)} | ${verdict(run.target_met)} |`);
      continue;
    }
    for (const r of ratios) {
      rows.push(
        `| \`${name}\` | ${cell(r.name)} | ${r.value}× | ${cell(r.baseline)} | ${r.op === '>=' ? '≥' : '≤'} ${r.limit}× | ${verdict(r.met)} |`,
      );
    }
  }
  const m = results.machine;
  const took = Number(m.full_run_seconds);
  const duration = took > 0 ? `; a full \`npm run bench\` took ${Math.round(took / 60)} min` : '';
  const machine = `Measured ${m.date ?? '?'} on ${m.cpu_model ?? '?'}, ${m.cores ?? '?'} cores, ${m.memory_gb ?? '?'} GB, Node ${m.node ?? '?'}, shared with other work${duration}. Every figure is in \`bench/results.json\`.`;
  return `${rows.join('\n')}\n\n${machine}`;
}

export function writeBenchTable(results: Results, readme = TABLE_FILE): void {
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end < start) throw new Error(`docs/benchmarks.md has no ${START} … ${END} block`);
  const block = `${START}\n${benchTable(results)}\n${END}`;
  writeFileSync(readme, text.slice(0, start) + block + text.slice(end + END.length));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeBenchTable(JSON.parse(readFileSync(RESULTS, 'utf8')) as Results);
}
