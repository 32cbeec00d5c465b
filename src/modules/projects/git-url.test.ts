/** Git remote URLs: what is accepted, what is refused, and the provider each implies. */
import { describe, expect, it } from 'vitest';
import { inferProvider, isParsed, parseGitUrl, providerMismatch } from './git-url.js';

describe('parseGitUrl', () => {
  it.each([
    ['https://github.com/acme/app.git', 'https', 'github.com'],
    ['https://git.example.org/team/app', 'https', 'git.example.org'],
    ['git@github.com:acme/app.git', 'ssh', 'github.com'],
    ['gitea@Git.Example.org:team/app.git', 'ssh', 'git.example.org'],
    ['ssh://git@git.example.org:2222/team/app.git', 'ssh', 'git.example.org'],
    ['file:///srv/git/app.git', 'local', null],
    ['/srv/git/app.git', 'local', null],
    ['http://127.0.0.1:8123/git/acme/shop.git', 'http', '127.0.0.1'],
    ['http://localhost/acme/shop', 'http', 'localhost'],
    ['http://[::1]:9000/acme/shop.git', 'http', '[::1]'],
  ])('accepts %s', (url, kind, host) => {
    expect(parseGitUrl(url)).toEqual({ kind, host });
  });

  it.each([
    ['', /characters/],
    ['https://x-access-token:ghp_secret@github.com/acme/app.git', /credentials/],
    ['https://user@github.com/acme/app.git', /credentials/],
    ['http://github.com/acme/app.git', /https/],
    ['http://10.0.0.5/acme/app.git', /loopback only/],
    ['http://127.0.0.1.example.org/acme/app.git', /loopback only/],
    ['http://token:x@127.0.0.1:8123/acme/app.git', /credentials/],
    ['http://127.0.0.1:8123/', /repository path/],
    ['https://github.com/', /repository path/],
    ['ftp://example.org/app.git', /not supported/],
    ['github.com/acme/app', /https, ssh or file/],
    ['/srv/git/../etc', /\.\./],
    ['git@github.com:-upload-pack=evil', /not valid/],
    ['https://github.com/acme/app .git', /spaces/],
    ['file://otherhost/srv/app.git', /local/],
    ['relative/path.git', /https, ssh or file/],
  ])('refuses %j', (url, reason) => {
    const parsed = parseGitUrl(url);
    expect(isParsed(parsed)).toBe(false);
    expect((parsed as { problem: string }).problem).toMatch(reason);
  });
});

describe('inferProvider', () => {
  it('knows github.com and local repositories, nothing else', () => {
    expect(inferProvider('https://github.com/acme/app.git')).toBe('github');
    expect(inferProvider('git@github.com:acme/app.git')).toBe('github');
    expect(inferProvider('file:///srv/git/app.git')).toBe('local');
    expect(inferProvider('/srv/git/app.git')).toBe('local');
    expect(inferProvider('https://gitea.example.org/acme/app.git')).toBeNull();
    expect(inferProvider('not a url')).toBeNull();
    expect(inferProvider('http://127.0.0.1:8123/git/acme/shop.git')).toBeNull();
  });
});

describe('providerMismatch', () => {
  it('needs a local URL for local and a remote one for forges', () => {
    expect(providerMismatch('local', '/srv/git/app.git')).toBeNull();
    expect(providerMismatch('gitea', 'https://gitea.example.org/a/b.git')).toBeNull();
    expect(providerMismatch('local', 'https://github.com/a/b.git')).toMatch(/local/);
    expect(providerMismatch('github', 'file:///srv/git/app.git')).toMatch(/remote/);
    expect(providerMismatch('gitea', 'http://127.0.0.1:8123/git/acme/shop.git')).toBeNull();
  });
});
