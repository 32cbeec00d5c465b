/** Applying create and update bodies onto stored settings: defaults, partial changes, nulls, problems. */
import { describe, expect, it } from 'vitest';
import { applyProjectBody, newProjectState, resolvedProvider } from './draft.js';

const minimal = { slug: 'app', name: 'App', git_url: 'https://github.com/acme/app.git' };

describe('newProjectState', () => {
  it('fills the defaults: main, protected [main], ci.yml, CI-watch off, no ladder', () => {
    const { state, problems } = newProjectState(minimal);
    expect(problems).toEqual([]);
    expect(state).toMatchObject({
      defaultBranch: 'main',
      protectedBranches: ['main'],
      environments: null,
      ciWatchEnabled: false,
      ciWatchWorkflow: 'ci.yml',
      gitProvider: null,
      depUpdatePaths: null,
      monthlyBudgetUsd: null,
      isActive: true,
    });
    expect(resolvedProvider(state)).toBe('github');
  });

  it('protects the default branch given, unless protected branches are given', () => {
    expect(newProjectState({ ...minimal, default_branch: 'trunk' }).state.protectedBranches).toEqual([
      'trunk',
    ]);
    expect(
      newProjectState({ ...minimal, protected_branches: ['main', 'release', 'main'] }).state
        .protectedBranches,
    ).toEqual(['main', 'release']);
  });

  it('reports every bad field at once', () => {
    const { problems } = newProjectState({
      ...minimal,
      slug: 'Bad',
      git_url: 'http://github.com/a/b',
      default_branch: 'a b',
      ci_watch_workflow: '../ci.yml',
      dep_update_paths: '/abs.lock',
      environments: [{ name: 'prod', branch: 'main' }],
    });
    expect(problems.map((p) => p.field).sort()).toEqual(
      [
        'body.ci_watch_workflow',
        'body.default_branch',
        'body.dep_update_paths',
        'body.environments',
        'body.git_url',
        'body.protected_branches.0',
        'body.slug',
      ].sort(),
    );
  });

  it('refuses a provider that does not fit the URL', () => {
    const { problems } = newProjectState({ ...minimal, git_provider: 'local' });
    expect(problems.map((p) => p.field)).toEqual(['body.git_provider']);
  });
});

describe('applyProjectBody', () => {
  const base = newProjectState({
    ...minimal,
    test_command: 'npm test',
    dep_update_command: 'npm update',
    ci_watch_workflow: 'build.yml',
    monthly_budget_usd: 50,
  }).state;

  it('changes only the fields present; null clears or resets to the default', () => {
    const { state, problems } = applyProjectBody(base, {
      lint_command: '  npm run lint ',
      test_command: null,
      ci_watch_workflow: null,
      monthly_budget_usd: null,
      protected_branches: null,
      default_branch: 'trunk',
    });
    expect(problems).toEqual([]);
    expect(state).toMatchObject({
      lintCommand: 'npm run lint',
      testCommand: null,
      depUpdateCommand: 'npm update',
      ciWatchWorkflow: 'ci.yml',
      monthlyBudgetUsd: null,
      defaultBranch: 'trunk',
      protectedBranches: ['trunk'],
    });
    expect(applyProjectBody(base, {}).state).toEqual(base);
  });

  it('stores an empty ladder as null and an empty command as none', () => {
    const withLadder = applyProjectBody(base, {
      environments: [
        { name: 'dev', branch: 'dev' },
        { name: 'prod', branch: 'main' },
      ],
    }).state;
    expect(withLadder.environments).toHaveLength(2);
    expect(applyProjectBody(withLadder, { environments: [] }).state.environments).toBeNull();
    expect(applyProjectBody(base, { build_command: '   ' }).state.buildCommand).toBeNull();
  });
});
