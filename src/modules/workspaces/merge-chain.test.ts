/** The merge chain rules: bases, protected targets, who merges from which state. */
import { describe, expect, it } from 'vitest';
import { decideMerge, headBranch, protectedBranchSet, resolveBaseBranch } from './merge-chain.js';

const single = { defaultBranch: 'main', environments: null, protectedBranches: [] };
const ladder = {
  defaultBranch: 'main',
  environments: [
    { name: 'dev', branch: 'develop' },
    { name: 'staging', branch: 'staging' },
    { name: 'prod', branch: 'main' },
  ],
  protectedBranches: ['release'],
};
const cellPm = { role: 'cell_pm' as const, team: 'backend' };
const ceo = { role: 'ceo' as const, team: null };

describe('bases', () => {
  it('is the head rung for a root, else the nearest ancestor branch', () => {
    expect(headBranch(single)).toBe('main');
    expect(headBranch(ladder)).toBe('develop');
    expect(resolveBaseBranch([], ladder)).toBe('develop');
    expect(
      resolveBaseBranch(
        [
          { id: 'r', branchName: 'feature/main_pm/r' },
          { id: 'c', branchName: null },
        ],
        ladder,
      ),
    ).toBe('feature/main_pm/r');
    expect(
      resolveBaseBranch(
        [
          { id: 'r', branchName: 'feature/main_pm/r' },
          { id: 'c', branchName: 'feature/backend/r--c' },
        ],
        single,
      ),
    ).toBe('feature/backend/r--c');
  });

  it('protects the default branch, every rung and the declared branches', () => {
    expect([...protectedBranchSet(ladder)].sort()).toEqual(['develop', 'main', 'release', 'staging']);
  });
});

describe('decideMerge', () => {
  const leaf = { status: 'awaiting_pm_review', team: 'backend' };

  it('lets the cell PM merge a leaf into its cell branch from awaiting_pm_review', () => {
    expect(decideMerge({ actor: cellPm, task: leaf, target: 'feature/backend/x', project: single })).toEqual({
      allowed: true,
      level: 'task_branch',
    });
    expect(
      decideMerge({
        actor: { role: 'main_pm', team: 'main_pm' },
        task: leaf,
        target: 'feature/main_pm/r',
        project: single,
      }).allowed,
    ).toBe(true);
  });

  it.each(['main', 'develop', 'staging', 'release'])(
    'refuses any agent merge into %s as ceo_only',
    (target) => {
      for (const role of ['cell_pm', 'main_pm', 'developer', 'pr_reviewer', 'system'] as const) {
        expect(
          decideMerge({ actor: { role, team: 'backend' }, task: leaf, target, project: ladder }),
        ).toMatchObject({
          allowed: false,
          code: 'ceo_only',
          flavor: 'not_authorized',
        });
      }
    },
  );

  it('lets the CEO merge into the head rung from awaiting_ceo_approval only', () => {
    const root = { status: 'awaiting_ceo_approval', team: 'main_pm' };
    expect(decideMerge({ actor: ceo, task: root, target: 'develop', project: ladder })).toEqual({
      allowed: true,
      level: 'protected',
    });
    expect(
      decideMerge({
        actor: ceo,
        task: { ...root, status: 'in_progress' },
        target: 'develop',
        project: ladder,
      }),
    ).toMatchObject({ allowed: false, code: 'invalid_state_for_merge' });
    expect(decideMerge({ actor: cellPm, task: root, target: 'feature/x', project: ladder })).toMatchObject({
      allowed: false,
      code: 'not_authorized',
    });
  });

  it('refuses the wrong state, a non-PM role and a PM of another cell', () => {
    const target = 'feature/backend/x';
    expect(
      decideMerge({ actor: cellPm, task: { ...leaf, status: 'in_progress' }, target, project: single }),
    ).toMatchObject({ allowed: false, code: 'invalid_state_for_merge', flavor: 'invalid_state' });
    expect(
      decideMerge({ actor: { role: 'developer', team: 'backend' }, task: leaf, target, project: single }),
    ).toMatchObject({ allowed: false, code: 'not_authorized' });
    expect(
      decideMerge({ actor: { role: 'cell_pm', team: 'frontend' }, task: leaf, target, project: single }),
    ).toMatchObject({ allowed: false, code: 'wrong_cell' });
  });
});
