/**
 * GET /api/system/doctor on the real app and stores: the stores answer, no provider connected is a
 * warning, a connected provider that refuses its key fails with a remedy and makes the report not
 * ok; only the CEO may ask. `gaffer doctor` prints the same table (src/cli/doctor.ts). The agent
 * CLI the runtime starts, installed under the home of the server's user, is bound into the sandbox
 * by itself (ok, saying what is bound) — or, lying in that home itself, fails with the path to add
 * to GAFFER_AGENT_SANDBOX_READ. The limits agent runs get are reported beside the runtime.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type Gaffer } from '../src/app.js';
import { doctorTable } from '../src/cli/doctor.js';
import type { DoctorReport } from '../src/modules/system/index.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { probeSandbox } from '../src/platform/process/index.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { createTestStores, type TestPlatform, type TestStores } from './support/stores.js';

let stores: TestStores;
let platform: TestPlatform;
let gaffer: Gaffer;
let fake: FakeLlm;

beforeAll(async () => {
  stores = await createTestStores();
  platform = await stores.platform();
  gaffer = await buildApp(platform, { logger: false });
  await gaffer.app.ready();
  fake = await startFakeLlm({ apiKey: 'the-right-key' });
});
afterAll(async () => {
  await gaffer.app.close();
  await stores.dispose();
  await fake.close();
});

const ceoToken = () => staticToken(platform.secret, CEO_IDENTITY);
const doctor = async (app: Gaffer = gaffer) => {
  const response = await app.app.inject({
    method: 'GET',
    url: '/api/system/doctor',
    headers: { 'x-agent-token': ceoToken() },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DoctorReport;
};

describe('the doctor on a running server', () => {
  it('checks the stores and says no model is connected', async () => {
    const report = await doctor();
    const by = (area: string, name: string) =>
      report.findings.find((f) => f.area === area && f.name === name);
    expect(by('stores', 'database')).toMatchObject({ status: 'ok' });
    expect(by('stores', 'cache')).toMatchObject({ status: 'ok' });
    expect(by('git', 'git')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^git \d/) });
    expect(by('model_provider', '(none)')).toMatchObject({
      status: 'warn',
      remedy: expect.stringContaining('Models & agents'),
    });
    expect(
      report.findings
        .filter((f) => f.area === 'agent_cli')
        .map((f) => f.name)
        .sort(),
    ).toEqual(['claude', 'codex', 'gemini']);
  });

  it('fails a provider that refuses its key, with what to do, and prints it as a table', async () => {
    for (const [name, key] of [
      ['good', 'the-right-key'],
      ['stale', 'an-old-key'],
    ]) {
      const created = await gaffer.app.inject({
        method: 'POST',
        url: '/api/providers',
        headers: { 'x-agent-token': ceoToken() },
        payload: {
          name,
          kind: 'openai',
          base_url: `${fake.url}/v1`,
          default_model: 'fake-small',
          api_key: key,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const report = await doctor();
    const good = report.findings.find((f) => f.name === 'good');
    const stale = report.findings.find((f) => f.name === 'stale');
    expect(good).toMatchObject({ status: 'ok', detail: expect.stringContaining('2 models listed') });
    expect(stale).toMatchObject({ status: 'fail', remedy: 'replace its key on Settings → Models & agents' });
    expect(report.ok).toBe(false);
    const table = doctorTable(report);
    expect(table).toMatch(/^FAIL {2}model_provider stale +\S/m);
    expect(table).toContain('→ replace its key on Settings → Models & agents');
    expect(table).toMatch(/Something the configuration needs is missing/);
  });

  it('answers only the CEO', async () => {
    const response = await gaffer.app.inject({ method: 'GET', url: '/api/system/doctor' });
    expect(response.statusCode).toBe(401);
  });
});

const bwrap = await probeSandbox();

describe.skipIf(!bwrap.ok)('the agent CLI the runtime starts, as the agent sandbox sees it', () => {
  let claudeApp: Gaffer;
  const scratch = mkdtempSync(join(tmpdir(), 'gaffer-doctor-home-'));
  /** The home of the server's user, as the doctor is told it ($HOME): never bound into a sandbox. */
  const home = join(scratch, 'home');
  const CLAUDE = '#!/bin/sh\necho "2.1.332 (Claude Code)"\n';

  beforeAll(async () => {
    const claudePlatform = await stores.platform({
      config: { agentRuntime: 'process', agentProvider: 'claude', agentSandbox: 'on' },
    });
    claudeApp = await buildApp(claudePlatform, { logger: false });
    await claudeApp.app.ready();
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await claudeApp?.app.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  const claudeFinding = (report: DoctorReport) =>
    report.findings.find((f) => f.area === 'agent_cli' && f.name === 'claude');

  it("binds Claude Code's own install under the home by itself, and says so", async () => {
    const versions = join(home, '.local/share/claude/versions');
    mkdirSync(versions, { recursive: true });
    writeFileSync(join(versions, '2.1.332'), CLAUDE);
    chmodSync(join(versions, '2.1.332'), 0o755);
    mkdirSync(join(home, '.local/bin'), { recursive: true });
    symlinkSync('../share/claude/versions/2.1.332', join(home, '.local/bin/claude'));
    vi.stubEnv('HOME', home);
    vi.stubEnv('PATH', `${join(home, '.local/bin')}:${process.env.PATH}`);

    const report = await doctor(claudeApp);
    const claude = claudeFinding(report);
    expect(claude, JSON.stringify(report.findings)).toMatchObject({ status: 'ok', remedy: null });
    expect(claude!.detail).toContain('claude 2.1.332 (the tested version), in use');
    expect(claude!.detail).toContain(
      `installed at ${join(home, '.local/bin/claude')} → ${join(versions, '2.1.332')}, outside the system: ` +
        `the sandbox binds ${versions} read-only for it by itself`,
    );
    expect(claude!.add_to_sandbox_read).toBeUndefined();
    // The limits its runs get, beside the runtime: whole-run cgroups, or a warning with what to change.
    const limits = report.findings.find((f) => f.area === 'runtime' && f.name === 'limits');
    if (limits?.status === 'ok')
      expect(limits.detail).toMatch(/^runs limited by cgroup v[12] \(processes, memory/);
    else expect(limits).toMatchObject({ status: 'warn', remedy: expect.stringContaining('Delegate=yes') });
  });

  it('fails a CLI lying in the home itself, naming the path to add to GAFFER_AGENT_SANDBOX_READ', async () => {
    unlinkSync(join(home, '.local/bin/claude'));
    writeFileSync(join(home, 'claude'), CLAUDE);
    chmodSync(join(home, 'claude'), 0o755);
    vi.stubEnv('HOME', home);
    vi.stubEnv('PATH', `${home}:${process.env.PATH}`);

    const report = await doctor(claudeApp);
    const claude = claudeFinding(report);
    expect(claude, JSON.stringify(report.findings)).toMatchObject({
      status: 'fail',
      add_to_sandbox_read: join(home, 'claude'),
      remedy: expect.stringContaining(
        `add ${join(home, 'claude')} to GAFFER_AGENT_SANDBOX_READ and restart Gaffer`,
      ),
    });
    expect(claude!.detail).toBe(
      `claude 2.1.332: the agent sandbox cannot bind claude (installed at ${join(home, 'claude')}): ` +
        `its folder ${home} is the home of the server's user, so no agent on it starts`,
    );
    expect(report.ok).toBe(false);
    expect(doctorTable(report)).toMatch(
      /^FAIL {2}agent_cli claude +claude 2\.1\.332: the agent sandbox cannot bind/m,
    );
  });
});
