/**
 * The forge factory: owner/repository from every git URL shape, the provider's default API base,
 * and a built forge that reaches the right repository of the right API with the token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeForge, startFakeForge } from '../../../test/support/fake-forge/index.js';
import { createForge, defaultApiUrl, parseRepoLocation } from './factory.js';

describe('parseRepoLocation', () => {
  it.each([
    ['https://github.com/acme/shop.git', 'https:', 'github.com', 'acme', 'shop'],
    ['https://github.com/acme/shop', 'https:', 'github.com', 'acme', 'shop'],
    ['https://git.example.org:8443/group/sub/app.git/', 'https:', 'git.example.org:8443', 'sub', 'app'],
    ['http://127.0.0.1:4000/git/acme/shop.git', 'http:', '127.0.0.1:4000', 'acme', 'shop'],
    ['git@github.com:acme/shop.git', null, 'github.com', 'acme', 'shop'],
    ['ssh://git@gitea.example.org:2222/team/app.git', null, 'gitea.example.org', 'team', 'app'],
  ])('reads %s', (url, scheme, host, owner, repo) => {
    expect(parseRepoLocation(url)).toEqual({ scheme, host, owner, repo });
  });

  it.each(['https://github.com/acme', '/srv/git/shop.git', 'file:///srv/git/shop.git', 'not a url'])(
    'finds no repository in %s',
    (url) => {
      expect(parseRepoLocation(url)).toBeNull();
    },
  );
});

describe('defaultApiUrl', () => {
  it('is api.github.com for github.com, /api/v3 on an Enterprise host, /api/v1 for Gitea', () => {
    const at = (url: string) => parseRepoLocation(url)!;
    expect(defaultApiUrl('github', at('git@github.com:acme/shop.git'))).toBe('https://api.github.com');
    expect(defaultApiUrl('github', at('https://ghe.corp.example/acme/shop'))).toBe(
      'https://ghe.corp.example/api/v3',
    );
    expect(defaultApiUrl('gitea', at('https://gitea.example.org/acme/shop.git'))).toBe(
      'https://gitea.example.org/api/v1',
    );
    expect(defaultApiUrl('gitea', at('ssh://git@gitea.example.org:2222/acme/shop.git'))).toBe(
      'https://gitea.example.org/api/v1',
    );
    expect(defaultApiUrl('gitea', at('http://127.0.0.1:4000/git/acme/shop.git'))).toBe(
      'http://127.0.0.1:4000/api/v1',
    );
  });
});

describe('createForge', () => {
  let fake: FakeForge | undefined;
  afterEach(() => fake?.close());

  it('builds a forge of the git URL’s repository on the given API, for each provider', async () => {
    fake = await startFakeForge();
    const headSha = 'c'.repeat(40);
    fake.addRun({
      owner: 'team',
      repo: 'app',
      workflow: 'ci.yml',
      branch: 'main',
      headSha,
      conclusion: 'failure',
    });
    const token = async () => fake!.token;
    const github = createForge({
      provider: 'github',
      apiUrl: fake.githubApiUrl,
      gitUrl: 'git@github.com:team/app.git',
      token,
    });
    const gitea = createForge({
      provider: 'gitea',
      apiUrl: fake.giteaApiUrl,
      gitUrl: fake.gitUrl('team', 'app'),
      token,
    });
    expect(github.provider).toBe('github');
    expect(gitea.provider).toBe('gitea');
    expect(await github.branchCiStatus('main', 'ci.yml')).toMatchObject({ conclusion: 'failure', headSha });
    expect(await gitea.commitCiStatus(headSha)).toMatchObject({ conclusion: 'failure', headSha });
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/api/v3/repos/team/app/actions/workflows/ci.yml/runs',
      `/api/v1/repos/team/app/commits/${headSha}/status`,
    ]);
  });

  it('derives the API from the git URL when none is given', async () => {
    fake = await startFakeForge();
    const gitea = createForge({
      provider: 'gitea',
      gitUrl: fake.gitUrl('acme', 'shop'),
      token: async () => fake!.token,
    });
    expect(await gitea.getRelease('v9')).toBeNull();
    expect(fake.requests).toMatchObject([{ path: '/api/v1/repos/acme/shop/releases/tags/v9' }]);
  });

  it('refuses a git URL without owner and repository', () => {
    expect(() =>
      createForge({ provider: 'github', gitUrl: '/srv/git/app.git', token: async () => null }),
    ).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });
});
