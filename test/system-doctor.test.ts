/**
 * GET /api/system/doctor on the real app and stores: the stores answer, no provider connected is a
 * warning, a connected provider that refuses its key fails with a remedy and makes the report not
 * ok; only the CEO may ask. `gaffer doctor` prints the same table (src/cli/doctor.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Gaffer } from '../src/app.js';
import { doctorTable } from '../src/cli/doctor.js';
import type { DoctorReport } from '../src/modules/system/index.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
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
const doctor = async () => {
  const response = await gaffer.app.inject({
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
