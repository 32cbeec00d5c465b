import { describe, expect, it } from 'vitest';
import { explicitLockfilePaths, inferLockfiles, lockfileManager } from './lockfiles.js';

describe('lockfileManager', () => {
  it.each([
    ['package-lock.json', 'npm'],
    ['pnpm-lock.yaml', 'pnpm'],
    ['yarn.lock', 'yarn'],
    ['bun.lock', 'bun'],
    ['bun.lockb', 'bun'],
    ['uv.lock', 'uv'],
    ['poetry.lock', 'poetry'],
    ['requirements.txt', 'pip-tools'],
    ['requirements-dev.txt', 'pip-tools'],
    ['Cargo.lock', 'cargo'],
    ['go.sum', 'go'],
    ['Gemfile.lock', 'bundler'],
    ['composer.lock', 'composer'],
    ['mix.lock', 'mix'],
    ['services/api/go.sum', 'go'],
  ])('knows %s as a %s lockfile', (path, manager) => {
    expect(lockfileManager(path)).toBe(manager);
  });

  it.each([
    'package.json',
    'go.mod',
    'Cargo.toml',
    'pyproject.toml',
    'requirements.in',
    'cargo.lock',
    'yarn.lock.bak',
    'README.md',
  ])('does not take %s for a lockfile', (path) => {
    expect(lockfileManager(path)).toBeNull();
  });
});

describe('inferLockfiles', () => {
  it('finds the tracked lockfiles of every package manager, at any depth, sorted', () => {
    const tracked = [
      'README.md',
      'package.json',
      'pnpm-lock.yaml',
      'crates/core/Cargo.toml',
      'Cargo.lock',
      'tools/go.mod',
      'tools/go.sum',
      'py/uv.lock',
      'py/requirements-dev.txt',
      'web/yarn.lock',
    ];
    expect(inferLockfiles(tracked)).toEqual([
      'Cargo.lock',
      'pnpm-lock.yaml',
      'py/requirements-dev.txt',
      'py/uv.lock',
      'tools/go.sum',
      'web/yarn.lock',
    ]);
  });

  it('ignores lockfiles of installed or vendored dependencies', () => {
    expect(
      inferLockfiles(['node_modules/left-pad/package-lock.json', 'vendor/x/go.sum', 'app/package-lock.json']),
    ).toEqual(['app/package-lock.json']);
  });

  it('finds nothing in a repository without lockfiles', () => {
    expect(inferLockfiles(['src/main.ts', 'package.json'])).toEqual([]);
  });
});

describe('explicitLockfilePaths', () => {
  it('splits the stored comma list, trimmed and without repeats; nothing set means infer', () => {
    expect(explicitLockfilePaths('deps/lock.json, Cargo.lock,,deps/lock.json')).toEqual([
      'deps/lock.json',
      'Cargo.lock',
    ]);
    expect(explicitLockfilePaths(null)).toBeNull();
    expect(explicitLockfilePaths(' , ')).toBeNull();
  });
});
