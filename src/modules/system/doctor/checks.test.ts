import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliInstall } from '../../../platform/process/cli-install.js';
import {
  checkAgentClis,
  checkRouteKinds,
  checkRunLimits,
  checkRuntime,
  checkTemplateCli,
  reportOf,
  TESTED_AGENT_CLIS,
} from './checks.js';
import type { SandboxView } from './cli-sight.js';

/** A PATH of its own holding fake CLIs that print the given versions. */
const bin = mkdtempSync(join(tmpdir(), 'gaffer-doctor-'));
const cli = (program: string, printed: string) => {
  const path = join(bin, program);
  writeFileSync(path, `#!/bin/sh\necho "${printed}"\n`);
  chmodSync(path, 0o755);
};
afterAll(() => rmSync(bin, { recursive: true, force: true }));
const env = { PATH: `${bin}:/usr/bin:/bin` };

describe('the doctor', () => {
  it('knows the CLI versions the suite pins (package.json devDependencies)', () => {
    const pinned = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'))
      .devDependencies as Record<string, string>;
    for (const cli of Object.values(TESTED_AGENT_CLIS)) expect(pinned[cli.npm], cli.npm).toBe(cli.version);
  });

  it('fails the CLI the runtime starts when it is missing, with the install command', async () => {
    cli('codex', `codex-cli ${TESTED_AGENT_CLIS.codex.version}`);
    cli('gemini', '0.1.0');
    const findings = await checkAgentClis({ kind: 'process', provider: 'claude' }, env);
    const by = Object.fromEntries(findings.map((f) => [f.name, f]));
    expect(by.claude).toMatchObject({
      status: 'fail',
      remedy: expect.stringContaining('npm i -g @anthropic-ai/claude-code@'),
    });
    expect(by.codex).toMatchObject({ status: 'ok', detail: expect.stringContaining('the tested version') });
    expect(by.gemini).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('tested with 0.61.0'),
    });
    expect(reportOf(findings, new Date()).ok).toBe(false);
  });

  it('does not fail a missing CLI nobody starts', async () => {
    const findings = await checkAgentClis({ kind: 'scripted', provider: 'claude' }, { PATH: '/nonexistent' });
    expect(findings.every((f) => f.status === 'ok')).toBe(true);
    expect(reportOf(findings, new Date()).ok).toBe(true);
  });

  it('fails a route the running CLI cannot follow: a provider of another wire than its own', () => {
    const routes = [
      { scope: 'global', subject: '', provider: { name: 'google', kind: 'gemini' } },
      { scope: 'role', subject: 'qa', provider: { name: 'local', kind: 'openai' } },
    ];
    expect(checkRouteKinds({ kind: 'process', provider: 'gemini' }, routes)).toEqual([
      {
        area: 'model_provider',
        name: 'local',
        status: 'fail',
        detail: 'the role route qa sends the gemini CLI to local (kind openai); it speaks only gemini',
        remedy: 'route a gemini provider there on Settings → Models & agents, or remove the route',
      },
    ]);
    expect(checkRouteKinds({ kind: 'process', provider: 'codex' }, routes).map((f) => f.name)).toEqual([
      'google',
    ]);
    expect(checkRouteKinds({ kind: 'process', provider: 'custom' }, routes)).toEqual([]);
    expect(checkRouteKinds({ kind: 'scripted', provider: 'claude' }, routes)).toEqual([]);
  });

  it('fails a process runtime whose sandbox cannot be made, and only warns when it is off', () => {
    const runtime = { kind: 'process', provider: 'codex' };
    expect(
      checkRuntime(runtime, { mode: 'on', warning: 'agents cannot start: bwrap is missing' }),
    ).toMatchObject({
      status: 'fail',
      remedy: expect.stringContaining('bubblewrap'),
    });
    expect(checkRuntime(runtime, { mode: 'off', warning: 'agents run unsandboxed' }).status).toBe('warn');
    expect(checkRuntime(runtime, { mode: 'on', warning: null }).status).toBe('ok');
  });
});

/** A sandbox that answers `install` for every program. */
const sandboxSaying = (install: CliInstall | null, mode: 'on' | 'off' = 'on'): SandboxView => ({
  mode,
  cliInstall: () => install,
});

describe('the doctor on the CLI the runtime starts, as the sandbox sees it', () => {
  it('says what the sandbox binds by itself, and fails what it cannot bind with the path to add', async () => {
    cli('claude', `${TESTED_AGENT_CLIS.claude.version} (Claude Code)`);
    const runtime = { kind: 'process', provider: 'claude' };
    const real = '/home/u/.local/share/claude/versions/x';
    const bound = sandboxSaying({
      found: '/home/u/.local/bin/claude',
      real,
      bind: ['/home/u/.local/share/claude/versions'],
      argv0: real,
    });
    const [ok] = await checkAgentClis(runtime, env, bound);
    expect(ok).toMatchObject({ name: 'claude', status: 'ok', remedy: null });
    expect(ok!.detail).toMatch(
      /in use; installed at \/home\/u\/\.local\/bin\/claude → .*versions\/x, outside/,
    );

    const refused = sandboxSaying({
      found: '/home/u/claude',
      real: '/home/u/claude',
      refused:
        'the agent sandbox cannot bind claude (installed at /home/u/claude): its folder /home/u is the home',
      pathToAdd: '/home/u/claude',
    });
    const [fail] = await checkAgentClis(runtime, env, refused);
    expect(fail).toMatchObject({
      status: 'fail',
      add_to_sandbox_read: '/home/u/claude',
      remedy: expect.stringMatching(/^add \/home\/u\/claude to GAFFER_AGENT_SANDBOX_READ/),
    });
    // Off, or for a CLI nobody starts, the sandbox is not asked.
    expect((await checkAgentClis(runtime, env, sandboxSaying(null, 'off')))[0]!.status).toBe('ok');
    const unused = await checkAgentClis({ kind: 'process', provider: 'codex' }, env, refused);
    expect(unused.find((f) => f.name === 'claude')?.status).toBe('ok');
  });

  it("checks a custom template's program: missing, in the system, or out of the sandbox's reach", () => {
    expect(checkTemplateCli('custom', 'gaffer-no-such-cli', env)).toMatchObject({
      status: 'fail',
      remedy: expect.stringContaining('GAFFER_AGENT_COMMAND_CUSTOM'),
    });
    expect(checkTemplateCli('custom', 'sh', env, sandboxSaying(null))).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^\/(usr\/)?bin\/sh \(the custom template's program\), in use$/),
    });
    const refused = checkTemplateCli(
      'custom',
      'sh',
      env,
      sandboxSaying({
        found: '/h/sh',
        real: '/h/sh',
        refused: 'the agent sandbox cannot bind /h/sh',
        pathToAdd: '/h/sh',
      }),
    );
    expect(refused).toMatchObject({ status: 'fail', add_to_sandbox_read: '/h/sh' });
  });

  it('reports the run limits: whole-run cgroups, or a warning saying what would give them', () => {
    expect(
      checkRunLimits({
        mechanism: 'cgroup2',
        ready: true,
        reason: null,
        enforced: ['processes', 'memory', 'cpu', 'wall_time'],
      }),
    ).toEqual({
      area: 'runtime',
      name: 'limits',
      status: 'ok',
      detail: 'runs limited by cgroup v2 (processes, memory, cpu, wall time)',
      remedy: null,
    });
    const rlimits = checkRunLimits({
      mechanism: 'rlimits',
      ready: false,
      reason: 'no cgroup can be made for the runs here (cgroup v2: not delegated)',
      enforced: ['wall_time'],
    });
    expect(rlimits).toMatchObject({ status: 'warn', remedy: expect.stringContaining('Delegate=yes') });
    expect(rlimits.detail).toContain('best-effort basis: no cgroup can be made for the runs here');
    expect(rlimits.remedy).toContain('as root on a cgroup v1 host');
  });
});
