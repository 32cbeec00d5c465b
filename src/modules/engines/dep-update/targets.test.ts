import { describe, expect, it } from 'vitest';
import { type DepUpdateProject, depUpdateTargets } from './targets.js';

const project = (slug: string, overrides: Partial<DepUpdateProject> = {}): DepUpdateProject => ({
  id: `id-${slug}`,
  slug,
  gitUrl: `https://github.com/acme/${slug}.git`,
  defaultBranch: 'main',
  environments: null,
  depUpdateCommand: 'npm update',
  depUpdatePaths: null,
  agentNetworkAllow: [],
  ...overrides,
});

describe('depUpdateTargets', () => {
  it('keeps only projects with a command and a git URL, in slug order', () => {
    const targets = depUpdateTargets([
      project('zeta'),
      project('blank', { depUpdateCommand: '   ' }),
      project('none', { depUpdateCommand: null }),
      project('nourl', { gitUrl: ' ' }),
      project('alpha', { depUpdateCommand: '  uv lock --upgrade ' }),
    ]);
    expect(targets.map((t) => [t.project.slug, t.command])).toEqual([
      ['alpha', 'uv lock --upgrade'],
      ['zeta', 'npm update'],
    ]);
  });

  it('collapses the projects of one repository running one command onto the first by slug', () => {
    const mono = 'https://github.com/acme/mono';
    const targets = depUpdateTargets([
      project('web', { gitUrl: `${mono}.git` }),
      project('api', { gitUrl: `${mono.toUpperCase()}/` }),
    ]);
    expect(targets).toHaveLength(1);
    expect(targets[0]!.project.slug).toBe('api');
    expect(targets[0]!.members.map((m) => m.slug)).toEqual(['api', 'web']);
    expect(targets[0]!.repo).toBe(mono);
  });

  it('probes two different commands on one repository apart', () => {
    const targets = depUpdateTargets([
      project('api', { gitUrl: 'https://github.com/acme/mono', depUpdateCommand: 'npm update' }),
      project('py', { gitUrl: 'https://github.com/acme/mono', depUpdateCommand: 'uv lock --upgrade' }),
    ]);
    expect(targets.map((t) => t.command)).toEqual(['npm update', 'uv lock --upgrade']);
  });

  it('probes the head rung of a ladder and reads explicit paths', () => {
    const [laddered, plain] = depUpdateTargets([
      project('a', {
        environments: [
          { name: 'dev', branch: 'develop' },
          { name: 'prod', branch: 'main' },
        ],
        depUpdatePaths: 'deps/lock.json,Cargo.lock',
      }),
      project('b', { defaultBranch: 'trunk' }),
    ]);
    expect(laddered).toMatchObject({ branch: 'develop', paths: ['deps/lock.json', 'Cargo.lock'] });
    expect(plain).toMatchObject({ branch: 'trunk', paths: null });
  });
});
