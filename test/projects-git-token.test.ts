/**
 * The git token is write-only: it never appears in a response body or a log line (pino at trace
 * level, no redaction), the stored column is AES-GCM ciphertext that opens back to it, and
 * updates follow null/absent = unchanged, "" = clear, value = replace.
 */
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Gaffer } from '../src/app.js';
import { projects } from '../src/modules/projects/schema.js';
import { createSecretBox } from '../src/platform/crypto/secret-box.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { createTestStores, type TestPlatform, type TestStores } from './support/stores.js';

const TOKEN = 'ghp_FIRSTsecretTOKEN0123456789abcdef';
const TOKEN_2 = 'ghp_SECONDsecretTOKEN9876543210fedcba';

let stores: TestStores;
let platform: TestPlatform;
let gaffer: Gaffer;
const logLines: string[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  stores = await createTestStores();
  platform = await stores.platform();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  gaffer = await buildApp(platform, { logger: { level: 'trace', stream } });
  await gaffer.app.ready();
});
afterAll(async () => {
  await gaffer.app.close();
  await stores.dispose();
});

const ceo = () => ({ 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) });
async function call(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
  headers: Record<string, string> = ceo(),
): Promise<LightMyRequestResponse> {
  const response = await gaffer.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  bodies.push(response.body, JSON.stringify(response.headers));
  return response;
}
const storedCiphertext = async (id: string) =>
  (await platform.database.db.select().from(projects).where(eq(projects.id, id)))[0]!.gitTokenCiphertext;

describe('git token', () => {
  let id: string;

  it('is accepted on create, reported only as has_git_token, and stored encrypted', async () => {
    const response = await call('POST', '/api/projects', {
      slug: 'secret',
      name: 'Secret',
      git_url: 'https://github.com/acme/secret.git',
      git_token: TOKEN,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ has_git_token: true });
    expect(response.json()).not.toHaveProperty('git_token');
    id = response.json().id;

    const stored = await storedCiphertext(id);
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(TOKEN);
    expect(createSecretBox(platform.secret, 'projects.git_token').open(stored!, id)).toBe(TOKEN);
    expect(await gaffer.modules.projects.service.gitToken(id)).toBe(TOKEN);
    expect(await gaffer.modules.projects.service.gitToken('secret')).toBe(TOKEN);
  });

  it('never shows up in reads', async () => {
    expect((await call('GET', `/api/projects/${id}`)).json()).toMatchObject({ has_git_token: true });
    await call('GET', '/api/projects');
    await call('GET', '/api/projects?active_only=false&limit=500');
  });

  it('is kept when null or absent, replaced by a value, cleared by ""', async () => {
    expect((await call('PATCH', `/api/projects/${id}`, { name: 'Renamed' })).json().has_git_token).toBe(true);
    expect((await call('PATCH', `/api/projects/${id}`, { git_token: null })).json().has_git_token).toBe(true);
    expect(await gaffer.modules.projects.service.gitToken(id)).toBe(TOKEN);

    const before = await storedCiphertext(id);
    expect((await call('PATCH', `/api/projects/${id}`, { git_token: TOKEN_2 })).json().has_git_token).toBe(
      true,
    );
    const after = await storedCiphertext(id);
    expect(after).not.toBe(before);
    expect(after).not.toContain(TOKEN_2);
    expect(await gaffer.modules.projects.service.gitToken(id)).toBe(TOKEN_2);

    expect((await call('PATCH', `/api/projects/${id}`, { git_token: '' })).json().has_git_token).toBe(false);
    expect(await storedCiphertext(id)).toBeNull();
    expect(await gaffer.modules.projects.service.gitToken(id)).toBeNull();
    await call('PATCH', `/api/projects/${id}`, { git_token: TOKEN });
  });

  it('is not echoed by refused requests either', async () => {
    const invalid = await call('POST', '/api/projects', {
      slug: 'Bad Slug',
      name: 'x',
      git_url: `https://user:${TOKEN}@github.com/a/b.git`,
      git_token: TOKEN,
      extra: TOKEN,
    });
    expect(invalid.statusCode).toBe(422);
    const developer = { id: 'be-dev-1', role: 'developer', team: 'backend' };
    const forbidden = await call(
      'PATCH',
      `/api/projects/${id}`,
      { git_token: TOKEN_2 },
      {
        'x-agent-id': developer.id,
        'x-agent-role': developer.role,
        'x-agent-team': developer.team,
        'x-agent-token': staticToken(platform.secret, developer),
      },
    );
    expect(forbidden.statusCode).toBe(403);
    const wrongType = await call('PATCH', `/api/projects/${id}`, {
      git_token: 42,
      ci_watch_workflow: TOKEN_2,
    });
    expect(wrongType.statusCode).toBe(422);
    const duplicate = await call('POST', '/api/projects', {
      slug: 'secret',
      name: 'x',
      git_url: 'https://github.com/a/b.git',
      git_token: TOKEN_2,
    });
    expect(duplicate.statusCode).toBe(409);
  });

  it('appears in no response body and no log line', () => {
    const logs = logLines.join('');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('request served');
    for (const secret of [TOKEN, TOKEN_2]) {
      expect(logs).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  });
});
