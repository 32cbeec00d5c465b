import { describe, expect, it } from 'vitest';
import { type WatchedProject, watchTargets } from './watch-set.js';

const project = (slug: string, overrides: Partial<WatchedProject> = {}): WatchedProject => ({
  id: `id-${slug}`,
  slug,
  gitUrl: `https://github.com/acme/${slug}.git`,
  gitProvider: null,
  forgeApiUrl: null,
  defaultBranch: 'main',
  environments: null,
  protectedBranches: [],
  assignedCell: 'backend',
  ciWatchWorkflow: 'ci.yml',
  ...overrides,
});

describe('watchTargets', () => {
  it('collapses the cell-projects of one monorepo onto the first by slug', () => {
    const mono = 'https://github.com/acme/mono';
    const targets = watchTargets([
      project('web', { gitUrl: `${mono}.git`, assignedCell: 'frontend' }),
      project('api', { gitUrl: `${mono}/`, assignedCell: 'backend' }),
    ]);
    expect(targets).toHaveLength(1);
    expect(targets[0]!.project.slug).toBe('api');
    expect(targets[0]!.members.map((m) => m.slug)).toEqual(['api', 'web']);
    expect(targets[0]!.repo).toBe(mono);
  });

  it('watches two workflows of one repository apart', () => {
    const targets = watchTargets([
      project('api', { gitUrl: 'https://github.com/acme/mono', ciWatchWorkflow: 'ci.yml' }),
      project('web', { gitUrl: 'https://github.com/acme/mono', ciWatchWorkflow: 'web.yml' }),
    ]);
    expect(targets.map((t) => t.workflow)).toEqual(['ci.yml', 'web.yml']);
  });

  it('reads the head rung of a ladder, the default branch without one', () => {
    const [laddered, plain] = watchTargets([
      project('a', {
        environments: [
          { name: 'dev', branch: 'develop' },
          { name: 'prod', branch: 'main' },
        ],
      }),
      project('b', { defaultBranch: 'trunk' }),
    ]);
    expect(laddered!.branch).toBe('develop');
    expect(plain!.branch).toBe('trunk');
  });
});
