/** Who may manage projects: the CEO and main PM anywhere, a cell PM in its own cell, nobody else. */
import { describe, expect, it } from 'vitest';
import { projectAccessProblem } from './access.js';

describe('projectAccessProblem', () => {
  it('lets the CEO and the main PM manage any project', () => {
    for (const role of ['ceo', 'main_pm'] as const) {
      expect(projectAccessProblem({ role, team: '' }, 'backend')).toBeNull();
      expect(projectAccessProblem({ role, team: '' }, null)).toBeNull();
    }
  });

  it('lets a cell PM manage its own cell only', () => {
    expect(projectAccessProblem({ role: 'cell_pm', team: 'backend' }, 'backend')).toBeNull();
    expect(projectAccessProblem({ role: 'cell_pm', team: 'backend' }, 'frontend')).toMatch(/frontend/);
    expect(projectAccessProblem({ role: 'cell_pm', team: 'backend' }, null)).not.toBeNull();
  });

  it('refuses every other role', () => {
    for (const role of ['developer', 'qa', 'auditor', 'product_owner', 'pr_reviewer', 'system'] as const) {
      expect(projectAccessProblem({ role, team: 'backend' }, 'backend')).not.toBeNull();
    }
  });
});
