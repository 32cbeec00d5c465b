import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAgentClis, checkRuntime, reportOf, TESTED_AGENT_CLIS } from './checks.js';

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
