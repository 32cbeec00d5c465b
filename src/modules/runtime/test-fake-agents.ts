/**
 * Fake agent CLIs for the runtime tests: small node scripts written to a temp directory and run as
 * real processes by the process runtime. Test-only; nothing imports it at run time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPTS = {
  /** Prints argv, cwd, env and the prompt / MCP files it was pointed at as one JSON line. */
  'report.mjs': `
import { readFileSync } from 'node:fs';
const argv = process.argv.slice(2);
const after = (flag) => { const i = argv.indexOf(flag); return i >= 0 ? argv[i + 1] : undefined; };
const promptFile = argv.find((a) => a.startsWith('--prompt-file='))?.slice('--prompt-file='.length);
const mcpFile = after('--mcp');
console.log(JSON.stringify({
  argv,
  cwd: process.cwd(),
  env: process.env,
  promptFile,
  prompt: promptFile ? readFileSync(promptFile, 'utf8') : null,
  mcpFile,
  mcp: mcpFile ? JSON.parse(readFileSync(mcpFile, 'utf8')) : null,
}));
`,
  /** Prints \`line 1\` … \`line N\` (argv[0], default 5), one every argv[1] ms, one stderr line, exits 0. */
  'lines.mjs': `
const count = Number(process.argv[2] ?? 5);
const every = Number(process.argv[3] ?? 5);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
for (let i = 1; i <= count; i++) {
  process.stdout.write('line ' + i + '\\n');
  if (i === 2) process.stderr.write('note on stderr\\n');
  await sleep(every);
}
`,
  /** Ignores SIGTERM; starts a grandchild that ignores it too (argv names the agent); prints \`ready <grandchild pid>\`. */
  'stubborn.mjs': `
import { spawn } from 'node:child_process';
process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
const child = spawn(process.execPath, ['-e', "process.on('SIGTERM',()=>{});setInterval(()=>{},1000)", 'grandchild-of-' + process.env.GAFFER_AGENT_SLUG], { stdio: 'ignore' });
console.log('ready ' + child.pid);
setInterval(() => {}, 1000);
`,
  /** Exits 0 on SIGTERM (saying bye), leaving behind a grandchild that ignores SIGTERM; prints \`ready <pid>\`. */
  'polite.mjs': `
import { spawn } from 'node:child_process';
const child = spawn(process.execPath, ['-e', "process.on('SIGTERM',()=>{});setInterval(()=>{},1000)", 'grandchild-of-' + process.env.GAFFER_AGENT_SLUG], { stdio: 'ignore' });
process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
console.log('ready ' + child.pid);
setInterval(() => {}, 1000);
`,
  /** Complains on stderr and exits 3. */
  'fail.mjs': `
console.log('starting');
console.error('boom: the build broke');
process.exit(3);
`,
  /** Prints argv[0] lines (default 200) of 99 characters plus newline. */
  'flood.mjs': `
const count = Number(process.argv[2] ?? 200);
for (let i = 0; i < count; i++) process.stdout.write(String(i).padStart(4, '0') + '-'.repeat(95) + '\\n');
`,
  /**
   * An agent CLI as Claude Code would be one: reads the MCP config (argv[0]), starts the \`gaffer\`
   * server with its \`\${VAR}\` environment expanded, speaks MCP (JSON lines on stdio) to list the
   * tools and call \`i_will_work_on\` with the JSON arguments in argv[1], prints what came back.
   */
  'mcp-agent.mjs': `
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
const config = JSON.parse(readFileSync(process.argv[2], 'utf8')).mcpServers.gaffer;
const env = { ...process.env };
for (const [name, value] of Object.entries(config.env ?? {})) {
  env[name] = value.replace(/\\$\\{(\\w+)\\}/g, (_, v) => process.env[v] ?? '');
}
const server = spawn(config.command, config.args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = new Map();
let buffer = '';
server.stdout.on('data', (data) => {
  buffer += data;
  let newline;
  while ((newline = buffer.indexOf('\\n')) >= 0) {
    const message = JSON.parse(buffer.slice(0, newline));
    buffer = buffer.slice(newline + 1);
    waiting.get(message.id)?.(message);
  }
});
let nextId = 1;
const request = (method, params) => new Promise((done) => {
  const id = nextId++;
  waiting.set(id, done);
  server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\\n');
});
await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fake-cli', version: '1.0.0' } });
server.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\\n');
const tools = await request('tools/list', {});
console.log('tools: ' + tools.result.tools.map((tool) => tool.name).join(','));
const called = await request('tools/call', { name: 'i_will_work_on', arguments: JSON.parse(process.argv[3]) });
console.log('answer: ' + called.result.content[0].text.replace(/\\n/g, ' '));
server.kill();
`,
} as const;

export type FakeAgent = keyof typeof SCRIPTS;

export interface FakeAgents {
  dir: string;
  /** Absolute path of a script. */
  path(name: FakeAgent): string;
  /** A command template running the script with this node: `"<node>" "<script>" <args>`. */
  template(name: FakeAgent, args?: string): string;
  remove(): void;
}

export function writeFakeAgents(): FakeAgents {
  const dir = mkdtempSync(join(tmpdir(), 'gaffer-fake-agents-'));
  for (const [name, source] of Object.entries(SCRIPTS)) writeFileSync(join(dir, name), source.trimStart());
  const path = (name: FakeAgent) => join(dir, name);
  return {
    dir,
    path,
    template: (name, args = '') => `"${process.execPath}" "${path(name)}" ${args}`.trim(),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The host pid of the grandchild stubborn.mjs or polite.mjs started for agent `slug`, found by its
 * argv (the pid the script prints is its own PID namespace's when the agent runs sandboxed).
 */
export function grandchildPid(slug: string): number | null {
  const marker = `grandchild-of-${slug}`;
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(marker)) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** True while `pid` names a live process (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `condition` until it holds; fails after `limitMs` (a safety net, not a speed assertion). */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  limitMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, 20));
  }
}
