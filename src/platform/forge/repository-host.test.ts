/**
 * Repository creation on both wires against the fake forge: under an organisation or the token's
 * own user, a name taken as `already_exists`, reading a repository, the token rules, a forge down.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_FORGE_USER, type FakeForge, startFakeForge } from '../../../test/support/fake-forge/index.js';
import { createRepositoryHost } from './repository-host.js';
import { ForgeError } from './types.js';

let fake: FakeForge;
beforeEach(async () => {
  fake = await startFakeForge();
});
afterEach(() => fake.close());

const input = { name: 'loyalty', description: 'Points', private: true, autoInit: true };

describe.each(['github', 'gitea'] as const)('on %s', (provider) => {
  const host = (owner: string, token: () => Promise<string | null> = async () => fake.token) =>
    createRepositoryHost({
      provider,
      apiUrl: provider === 'github' ? fake.githubApiUrl : fake.giteaApiUrl,
      owner,
      token,
      retry: { baseDelayMs: 5, attempts: 2 },
    });
  const prefix = provider === 'github' ? '/api/v3' : '/api/v1';

  it('creates a repository in an organisation, clonable with the token', async () => {
    const made = await host('acme').createRepository(input);
    expect(made).toMatchObject({ owner: 'acme', name: 'loyalty', private: true, defaultBranch: 'main' });
    expect(made.cloneUrl).toBe(fake.gitUrl('acme', 'loyalty'));
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain(`POST ${prefix}/orgs/acme/repos`);
    const heads = await promisify(execFile)('git', [
      '-c',
      `http.extraHeader=Authorization: Bearer ${fake.token}`,
      'ls-remote',
      made.cloneUrl,
      'main',
    ]);
    expect(heads.stdout).toMatch(/^[0-9a-f]{40}\trefs\/heads\/main/);
  });

  it("creates under /user/repos when the owner is the token's user", async () => {
    const made = await host(FAKE_FORGE_USER).createRepository(input);
    expect(made.owner).toBe(FAKE_FORGE_USER);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain(`POST ${prefix}/user/repos`);
  });

  it('answers already_exists for a name taken, and reads the repository there', async () => {
    fake.createRepository('acme', 'loyalty');
    const error = await host('acme')
      .createRepository(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgeError);
    expect((error as ForgeError).code).toBe('already_exists');
    expect((await host('acme').getRepository('loyalty'))?.cloneUrl).toBe(fake.gitUrl('acme', 'loyalty'));
    expect(await host('acme').getRepository('nothing')).toBeNull();
  });

  it('refuses without a token or with a wrong one, and reports a forge down as unavailable', async () => {
    await expect(host('acme', async () => null).createRepository(input)).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await expect(host('acme', async () => 'wrong').createRepository(input)).rejects.toMatchObject({
      code: 'unauthorized',
    });
    fake.failNext({ status: 503, times: 5 });
    await expect(host('acme').createRepository(input)).rejects.toMatchObject({ code: 'unavailable' });
    expect(fake.repository('acme', 'loyalty')).toBeUndefined();
  });
});
