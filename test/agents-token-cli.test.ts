/**
 * `gaffer token <slug>` as a person runs it: a real process on a real data directory (or a fresh
 * PostgreSQL database when GAFFER_TEST_DATABASE_URL is set). The token is signed over the agent's
 * UUID, role and team, and the headers to send with it go to stderr.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { verifyToken } from '../src/platform/http/auth/tokens.js';
import { startTestApp } from './support/app.js';
import { GAFFER_MAIN } from './support/gaffer-cli.js';
import { createTestStores, type TestStores } from './support/stores.js';

const run = promisify(execFile);

let stores: TestStores;
let env: NodeJS.ProcessEnv;
let customId: string;
beforeAll(async () => {
  stores = await createTestStores();
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  env = {
    ...clean,
    GAFFER_DATA_DIR: stores.dataDir,
    GAFFER_LOG_LEVEL: 'warn',
    ...(stores.databaseUrl ? { GAFFER_DATABASE_URL: stores.databaseUrl } : {}),
  };
  // The CEO adds one agent and retires another, then the service stops (PGlite is single-process).
  const t = await startTestApp({ stores });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/agents',
    headers: t.ceoHeaders,
    payload: { slug: 'ops-bot', name: 'Ops', role: 'auditor', team: null },
  });
  customId = created.json().id;
  await t.app.inject({ method: 'POST', url: '/api/agents/be-qa/retire', headers: t.ceoHeaders });
  await t.close();
}, 60_000);
afterAll(async () => {
  await stores.dispose();
});

const gaffer = (...args: string[]) => run(process.execPath, [GAFFER_MAIN, ...args], { env });
const secret = () => readFileSync(join(stores.dataDir, 'auth-secret'), 'utf8').trim();

describe('gaffer token <slug>', () => {
  it('works on a fresh data directory, before the first start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-token-'));
    try {
      const fresh: NodeJS.ProcessEnv = { ...env, GAFFER_DATA_DIR: dataDir };
      delete fresh.GAFFER_DATABASE_URL;
      const { stdout } = await run(process.execPath, [GAFFER_MAIN, 'token', 'ux-pm'], { env: fresh });
      const pm = rosterMember('ux-pm');
      const key = readFileSync(join(dataDir, 'auth-secret'), 'utf8').trim();
      expect(verifyToken(key, stdout.trim(), { id: pm.id, role: 'cell_pm', team: 'ux_ui' }).ok).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('prints a static token over the seeded agent’s UUID, role and team', async () => {
    const { stdout, stderr } = await gaffer('token', 'be-dev-1');
    const agent = rosterMember('be-dev-1');
    const token = stdout.trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyToken(secret(), token, { id: agent.id, role: 'developer', team: 'backend' })).toMatchObject({
      ok: true,
    });
    expect(verifyToken(secret(), token, { id: 'be-dev-1', role: 'developer', team: 'backend' }).ok).toBe(
      false,
    );
    expect(stderr).toContain(`X-Agent-ID: ${agent.id}`);
    expect(stderr).toContain('X-Agent-Role: developer');
    expect(stderr).toContain('X-Agent-Team: backend');
    expect(stderr).not.toContain(token);
  }, 60_000);

  it('prints an expiring token with --ttl, and works for agents the CEO added', async () => {
    const { stdout } = await gaffer('token', 'ops-bot', '--ttl', '600');
    expect(verifyToken(secret(), stdout.trim(), {})).toMatchObject({
      ok: true,
      subject: { id: customId, role: 'auditor', team: '' },
    });
  }, 60_000);

  it('refuses unknown and retired agents with exit code 2', async () => {
    const unknown = await gaffer('token', 'no-such-agent').catch((e) => e);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no agent "no-such-agent" in the roster');
    const retired = await gaffer('token', 'be-qa').catch((e) => e);
    expect(retired.code).toBe(2);
    expect(retired.stderr).toContain('retired');
  }, 60_000);

  it('keeps `token ceo` and the --role form', async () => {
    const ceo = await gaffer('token', 'ceo');
    expect(
      verifyToken(secret(), ceo.stdout.trim(), { id: '00000000-0000-0000-0000-000000000001', role: 'ceo' })
        .ok,
    ).toBe(true);
    const custom = await gaffer('token', 'someone', '--role', 'qa', '--team', 'frontend');
    expect(
      verifyToken(secret(), custom.stdout.trim(), { id: 'someone', role: 'qa', team: 'frontend' }).ok,
    ).toBe(true);
  }, 60_000);
});
