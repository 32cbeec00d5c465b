/** Declaration rules of a task (reference A §2.3): target, inheritance, depth, creators, PM-code, criterion ids. */
import { describe, expect, it } from 'vitest';
import {
  childDepth,
  createRefusal,
  declarationProblems,
  pmCodeProblems,
  resolveTarget,
  withCriterionIds,
} from './create-rules.js';

const P = '11111111-1111-4111-8111-111111111111';
const Q = '22222222-2222-4222-8222-222222222222';
const B = '33333333-3333-4333-8333-333333333333';

describe('resolveTarget', () => {
  it('accepts exactly one of project, product or a per-cell map', () => {
    expect(resolveTarget({ project_id: P }, 'backend', null)).toEqual({
      target: { kind: 'project', projectId: P },
    });
    expect(resolveTarget({ product_id: Q }, 'backend', null)).toEqual({
      target: { kind: 'product', productId: Q },
    });
    expect(resolveTarget({ cell_projects: { backend: P, frontend: Q } }, 'main_pm', null)).toEqual({
      target: { kind: 'cell_projects', cellProjects: { backend: P, frontend: Q } },
    });
  });

  it('refuses two targets, naming both fields', () => {
    const result = resolveTarget({ project_id: P, product_id: Q }, 'backend', null);
    expect('problems' in result && result.problems.map((p) => p.field)).toEqual([
      'body.project_id',
      'body.product_id',
    ]);
    const three = resolveTarget({ project_id: P, cell_projects: { backend: P } }, 'backend', null);
    expect('problems' in three).toBe(true);
  });

  it('refuses no target, and treats an empty cell map as none', () => {
    expect('problems' in resolveTarget({}, 'backend', null)).toBe(true);
    expect('problems' in resolveTarget({ cell_projects: {} }, 'backend', null)).toBe(true);
  });

  it('lets a MegaTask umbrella (batch id, no parent) go without a target', () => {
    expect(resolveTarget({ batch_id: B }, 'main_pm', null)).toEqual({ target: { kind: 'umbrella' } });
  });

  it('lets a child inherit its parent’s project, cell-map entry or product', () => {
    const parent = { projectId: null, productId: null, cellProjects: { frontend: Q } };
    expect(resolveTarget({ parent_task_id: B }, 'backend', { ...parent, projectId: P })).toEqual({
      target: { kind: 'project', projectId: P },
    });
    expect(resolveTarget({ parent_task_id: B }, 'frontend', parent)).toEqual({
      target: { kind: 'project', projectId: Q },
    });
    expect(resolveTarget({ parent_task_id: B }, 'backend', { ...parent, productId: P })).toEqual({
      target: { kind: 'product', productId: P },
    });
    expect('problems' in resolveTarget({ parent_task_id: B }, 'backend', parent)).toBe(true);
  });
});

describe('childDepth', () => {
  it('allows roots and children down to depth 3', () => {
    expect(childDepth(null)).toEqual({ depth: 0 });
    expect(childDepth(2)).toEqual({ depth: 3 });
  });
  it('refuses a fifth level', () => {
    expect(childDepth(3)).toMatchObject({ problem: { field: 'body.parent_task_id' } });
  });
});

describe('createRefusal', () => {
  it('lets PMs, the board, the CEO and the system open tasks; cell PMs for their own team only', () => {
    expect(createRefusal('ceo', null, 'backend')).toBeNull();
    expect(createRefusal('main_pm', 'main_pm', 'frontend')).toBeNull();
    expect(createRefusal('cell_pm', 'backend', 'backend')).toBeNull();
    expect(createRefusal('cell_pm', 'backend', 'frontend')).toMatch(/own team/);
    expect(createRefusal('system', 'system', 'ux_ui')).toBeNull();
  });
  it('refuses delivery roles', () => {
    for (const role of ['developer', 'qa', 'documenter', 'pr_reviewer'] as const) {
      expect(createRefusal(role, 'backend', 'backend')).toMatch(/may not create/);
    }
  });
});

describe('pmCodeProblems', () => {
  it('never hands a PM a fresh code task', () => {
    expect(pmCodeProblems('code', 'backend', 'cell_pm')).toHaveLength(1);
    expect(pmCodeProblems('code', 'backend', 'main_pm')).toHaveLength(1);
    expect(pmCodeProblems('planning', 'backend', 'cell_pm')).toEqual([]);
    expect(pmCodeProblems('code', 'backend', 'developer')).toEqual([]);
  });
  it('forbids main_pm-team code tasks outright', () => {
    expect(pmCodeProblems('code', 'main_pm', null)).toEqual([
      { field: 'body.task_type', message: expect.any(String) },
    ]);
  });
});

describe('declarationProblems', () => {
  it('checks the limits for callers that bypass the HTTP schema', () => {
    const fields = declarationProblems({
      title: ' ',
      description: 'too short',
      acceptance_criteria: [],
      priority: 4,
      source: 'x'.repeat(51),
    }).map((p) => p.field);
    expect(fields).toEqual([
      'body.title',
      'body.description',
      'body.acceptance_criteria',
      'body.priority',
      'body.source',
    ]);
    expect(declarationProblems({ acceptance_criteria: ['a', 'x'.repeat(201)] }).map((p) => p.field)).toEqual([
      'body.acceptance_criteria.1',
    ]);
    expect(
      declarationProblems({ title: 'ok', description: 'long enough to describe it', priority: 0 }),
    ).toEqual([]);
  });
});

describe('withCriterionIds', () => {
  let n = 0;
  const ids = () => `id${++n}`;
  it('generates ids and keeps them for unchanged texts', () => {
    n = 0;
    const first = withCriterionIds(['a', 'b'], [], ids);
    expect(first).toEqual([
      { id: 'id1', text: 'a' },
      { id: 'id2', text: 'b' },
    ]);
    expect(withCriterionIds(['b', 'c', 'a'], first, ids)).toEqual([
      { id: 'id2', text: 'b' },
      { id: 'id3', text: 'c' },
      { id: 'id1', text: 'a' },
    ]);
  });
  it('uses each kept id once', () => {
    n = 0;
    expect(withCriterionIds(['a', 'a'], [{ id: 'x', text: 'a' }], ids)).toEqual([
      { id: 'x', text: 'a' },
      { id: 'id1', text: 'a' },
    ]);
  });
});
