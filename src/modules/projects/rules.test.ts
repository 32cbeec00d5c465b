/** Field rules of projects: slugs, branch names, relative paths, lockfile paths, forge URLs, commands. */
import { describe, expect, it } from 'vitest';
import {
  forgeApiUrlProblem,
  normalizeCommand,
  normalizeDepUpdatePaths,
  relativePathProblem,
  slugProblem,
  workflowProblem,
} from './rules.js';

describe('slugProblem', () => {
  it('accepts short kebab slugs and refuses the rest', () => {
    for (const ok of ['a', 'gaffer', 'web-app-2']) expect(slugProblem(ok)).toBeNull();
    for (const bad of ['', 'Web', 'web_app', 'x'.repeat(51), '123e4567-e89b-12d3-a456-426614174000']) {
      expect(slugProblem(bad)).not.toBeNull();
    }
  });
});

describe('relative paths', () => {
  it('accepts repository-relative paths only', () => {
    expect(relativePathProblem('package-lock.json')).toBeNull();
    expect(relativePathProblem('web/pnpm-lock.yaml')).toBeNull();
    for (const bad of ['/etc/passwd', '../x', 'a/../../b', '~/x', 'C:/x', 'a\\b', '']) {
      expect(relativePathProblem(bad)).not.toBeNull();
    }
    expect(workflowProblem('.github/workflows/ci.yml')).toBeNull();
    expect(workflowProblem('my ci.yml')).not.toBeNull();
  });

  it('normalises comma-separated lockfile paths and reports each bad one', () => {
    expect(normalizeDepUpdatePaths(' package-lock.json , web/yarn.lock,,package-lock.json ')).toEqual({
      paths: 'package-lock.json,web/yarn.lock',
      problems: [],
    });
    expect(normalizeDepUpdatePaths(' , ')).toEqual({ paths: null, problems: [] });
    expect(normalizeDepUpdatePaths(null)).toEqual({ paths: null, problems: [] });
    const bad = normalizeDepUpdatePaths('ok.lock,../up.lock,/abs.lock');
    expect(bad.problems.map((p) => p.field)).toEqual(['body.dep_update_paths', 'body.dep_update_paths']);
    expect(bad.problems[0]?.message).toContain('../up.lock');
  });
});

describe('forgeApiUrlProblem and normalizeCommand', () => {
  it('wants https without credentials (http on loopback only)', () => {
    expect(forgeApiUrlProblem('https://api.github.com')).toBeNull();
    expect(forgeApiUrlProblem('http://127.0.0.1:8080/api/v1')).toBeNull();
    expect(forgeApiUrlProblem('http://gitea.lan/api/v1')).not.toBeNull();
    expect(forgeApiUrlProblem('https://u:p@gitea.example.org')).not.toBeNull();
    expect(forgeApiUrlProblem('not a url')).not.toBeNull();
  });

  it('trims commands; empty means none', () => {
    expect(normalizeCommand('  npm test ')).toBe('npm test');
    expect(normalizeCommand('   ')).toBeNull();
    expect(normalizeCommand(null)).toBeNull();
  });
});
