/**
 * An agent CLI installed under the home of the server's user runs in the sandbox without
 * GAFFER_AGENT_SANDBOX_READ: the process runtime starts it through bubblewrap with its install
 * bound read-only — Claude Code's installer layout (`~/.local/bin/<cli>`, a link to one file under
 * `~/.local/share/<cli>/versions/`) and nvm's (a `bin/` link into `lib/node_modules/<pkg>`, run by
 * nvm's own `node` through `#!/usr/bin/env node`) — while the rest of that home stays out of sight.
 */
import {
  chmodSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessRuntime, type RunIo, type SpawnSpec } from '../src/modules/runtime/index.js';
import { AgentSandbox, probeSandbox } from '../src/platform/process/index.js';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the CLI-under-a-home sandbox suite: ${bwrap.reason}`);

const scratch = mkdtempSync(join(tmpdir(), 'gaffer-cli-home-'));
/** The home of the server's user, as the sandbox is told (it is never bound). */
const home = join(scratch, 'home');
const data = join(scratch, 'data');
const workspace = join(scratch, 'work');
const runRoot = join(scratch, 'runs');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function put(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}
function link(path: string, target: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

/** What each CLI tries besides printing: the rest of the home, which must not be there. */
const SECRET = join(home, '.ssh/id_ed25519');

// Claude Code's installer: ~/.local/bin/claude-ish → ~/.local/share/claude-ish/versions/1.0.0.
put(
  join(home, '.local/share/claude-ish/versions/1.0.0'),
  `#!/bin/sh\necho "native-like CLI ran: $*"\ncat ${SECRET} 2>/dev/null && echo "READ THE HOME" || echo "home hidden"\n`,
);
link(join(home, '.local/bin/claude-ish'), '../share/claude-ish/versions/1.0.0');

// nvm: its own node (a hard link of this one where the file system allows, else a copy), and a
// package whose entry imports a sibling module.
const nvm = join(home, '.nvm/versions/node/v99.0.0');
mkdirSync(join(nvm, 'bin'), { recursive: true });
try {
  linkSync(process.execPath, join(nvm, 'bin/node'));
} catch {
  copyFileSync(process.execPath, join(nvm, 'bin/node'));
}
const pkg = join(nvm, 'lib/node_modules/gemini-ish');
put(join(pkg, 'package.json'), JSON.stringify({ name: 'gemini-ish', type: 'module' }));
put(join(pkg, 'lib/words.js'), "export const words = 'module beside it loaded';\n");
put(
  join(pkg, 'bin/cli.js'),
  `#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { words } from '../lib/words.js';
console.log('node CLI ran under ' + process.execPath + ': ' + words);
console.log(existsSync(${JSON.stringify(SECRET)}) ? 'READ THE HOME' : 'home hidden');
`,
);
link(join(nvm, 'bin/gemini-ish'), '../lib/node_modules/gemini-ish/bin/cli.js');
put(SECRET, 'PRIVATE KEY\n');
mkdirSync(workspace, { recursive: true });
mkdirSync(runRoot, { recursive: true });

const runtime = new ProcessRuntime({
  providers: { 'claude-ish': 'claude-ish {prompt}', 'gemini-ish': 'gemini-ish {prompt}' },
  sandbox: new AgentSandbox({ mode: 'on', dataDir: data, home }),
  serverEnv: { PATH: `${join(home, '.local/bin')}:${join(nvm, 'bin')}:/usr/bin:/bin` },
  gafferCommand: [process.execPath, '/nonexistent/gaffer.js'],
  runRoot,
  killGraceSeconds: 1,
});

/** Runs `provider` to its end; its stdout and how it ended. */
async function run(provider: string): Promise<{ stdout: string; outcome: string; detail: string }> {
  let stdout = '';
  const spec: SpawnSpec = {
    agent: {
      id: '00000000-0000-4000-8000-000000000001',
      slug: 'be-dev-1',
      role: 'developer',
      team: 'backend',
    },
    taskId: null,
    workspace,
    prompt: 'say hello',
    provider,
    // A port above 1024: the relay serves it inside, where no capability is left.
    gatewayUrl: 'http://127.0.0.1:45999',
    token: 'a-token',
  };
  const io: RunIo = {
    runId: `run-${provider}`,
    output: (stream, text) => {
      if (stream === 'stdout') stdout += text;
    },
  };
  const running = await runtime.spawn(spec, io);
  const exit = await running.exited;
  return { stdout, outcome: exit.outcome, detail: exit.detail };
}

describe.skipIf(!bwrap.ok)('an agent CLI installed under the home', () => {
  it("runs from Claude Code's installer layout, its versions folder bound and nothing else of the home", async () => {
    const result = await run('claude-ish');
    expect(result, result.detail).toMatchObject({ outcome: 'exited' });
    expect(result.stdout).toContain('native-like CLI ran: say hello');
    expect(result.stdout).toContain('home hidden');
    expect(result.stdout).not.toContain('READ THE HOME');
  }, 30_000);

  it("runs from an nvm prefix, under nvm's own node, its package's modules beside it", async () => {
    const result = await run('gemini-ish');
    expect(result, result.detail).toMatchObject({ outcome: 'exited' });
    expect(result.stdout).toContain(`node CLI ran under ${join(nvm, 'bin/node')}: module beside it loaded`);
    expect(result.stdout).toContain('home hidden');
  }, 30_000);
});
