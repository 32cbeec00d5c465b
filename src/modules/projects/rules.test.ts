/**
 * Field rules of projects: slugs, branch names, relative paths, lockfile paths, the agent network
 * allowlist, forge URLs, commands.
 */
import { describe, expect, it } from 'vitest';
import {
  forgeApiUrlProblem,
  normalizeAgentNetworkAllow,
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

describe('normalizeAgentNetworkAllow', () => {
  it('trims, drops blanks and repeats (however spelled), and keeps the order given', () => {
    expect(
      normalizeAgentNetworkAllow([
        ' pypi.org ',
        'files.pythonhosted.org',
        '',
        'PyPI.org',
        '*.npmjs.org:443',
        '[2001:DB8::1]',
        '[2001:db8:0::1]',
        'pypi.org:443',
      ]),
    ).toEqual({
      entries: ['pypi.org', 'files.pythonhosted.org', '*.npmjs.org:443', '[2001:DB8::1]', 'pypi.org:443'],
      problems: [],
    });
    expect(normalizeAgentNetworkAllow([' ', '']).entries).toEqual([]);
  });

  it('names every entry the proxy would not understand, and why', () => {
    const { problems } = normalizeAgentNetworkAllow([
      'registry.npmjs.org',
      'https://registry.npmjs.org',
      '10.0.0.0/8',
      'pypi.org/simple',
      '*',
    ]);
    expect(problems.map((p) => p.field)).toEqual(Array(4).fill('body.agent_network_allow'));
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^"https:\/\/registry\.npmjs\.org": .*without a scheme/),
      expect.stringMatching(/^"10\.0\.0\.0\/8": .*CIDR/),
      expect.stringMatching(/^"pypi\.org\/simple": .*paths/),
      expect.stringMatching(/^"\*": /),
    ]);
  });
});
