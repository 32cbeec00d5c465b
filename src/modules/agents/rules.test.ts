/** Roster rules: slugs, role/team fit, protected agents, escalation chains. */
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../platform/http/auth/identity.js';
import { escalationChain, roleTeamProblems, slugProblems } from './rules.js';

describe('slugProblems', () => {
  it.each(['be-dev-3', 'qa', 'a1', 'x'.repeat(50)])('accepts %s', (slug) => {
    expect(slugProblems(slug)).toEqual([]);
  });
  it.each(['a', 'Be-Dev', 'be_dev', 'be dev', 'x'.repeat(51), '', '00000000-0000-0000-0000-000000000009'])(
    'refuses %j',
    (slug) => {
      expect(slugProblems(slug)).toEqual([{ field: 'body.slug', message: expect.any(String) }]);
    },
  );
});

describe('roleTeamProblems', () => {
  it('accepts cell roles in a delivery cell and org roles with or without a team', () => {
    expect(roleTeamProblems('developer', 'backend')).toEqual([]);
    expect(roleTeamProblems('cell_pm', 'ux_ui')).toEqual([]);
    expect(roleTeamProblems('auditor', 'board')).toEqual([]);
    expect(roleTeamProblems('pr_reviewer', null)).toEqual([]);
    expect(roleTeamProblems('main_pm', 'main_pm')).toEqual([]);
  });

  it('needs a delivery cell for developers, QA, documenters and cell PMs', () => {
    for (const role of ['developer', 'qa', 'documenter', 'cell_pm'] as const) {
      expect(roleTeamProblems(role, 'board')).toEqual([{ field: 'body.team', message: expect.any(String) }]);
      expect(roleTeamProblems(role, null)).toHaveLength(1);
    }
  });

  it('never gives the ceo or system role, nor the system team', () => {
    expect(roleTeamProblems('ceo', 'board')).toEqual([{ field: 'body.role', message: expect.any(String) }]);
    expect(roleTeamProblems('system', null)[0]?.field).toBe('body.role');
    expect(roleTeamProblems('auditor', 'system')).toEqual([
      { field: 'body.team', message: expect.any(String) },
    ]);
  });

  it('lets roles change, except to or from ceo and system', () => {
    const dev = { role: 'developer', team: 'backend' } as const;
    expect(roleTeamProblems('qa', 'backend', dev)).toEqual([]);
    expect(roleTeamProblems('ceo', 'backend', dev).map((p) => p.field)).toEqual(['body.role']);
    const ceo = { role: 'ceo', team: 'board' } as const;
    expect(roleTeamProblems('ceo', 'board', ceo)).toEqual([]);
    expect(roleTeamProblems('main_pm', 'board', ceo).map((p) => p.field)).toEqual(['body.role']);
    expect(roleTeamProblems('ceo', 'backend', ceo).map((p) => p.field)).toEqual(['body.team']);
    expect(roleTeamProblems('system', 'system', { role: 'system', team: 'system' })).toEqual([]);
  });
});

describe('escalationChain', () => {
  const roles = (role: Parameters<typeof escalationChain>[0]) => escalationChain(role).map((s) => s.role);

  it('follows the reference chain, with fall-backs up the hierarchy', () => {
    for (const role of ['developer', 'qa', 'documenter'] as const) {
      expect(escalationChain(role)[0]).toEqual({ role: 'cell_pm', sameCell: true });
      expect(roles(role)).toEqual(['cell_pm', 'main_pm', 'product_owner', 'ceo']);
    }
    expect(roles('cell_pm')).toEqual(['main_pm', 'product_owner', 'ceo']);
    expect(roles('main_pm')).toEqual(['product_owner', 'ceo']);
    for (const role of ['product_owner', 'head_marketing', 'auditor'] as const)
      expect(roles(role)).toEqual(['ceo']);
  });

  it('gives PR reviewers, the CEO and the system agent no target', () => {
    for (const role of ['pr_reviewer', 'ceo', 'system'] as const) expect(escalationChain(role)).toEqual([]);
  });

  it('covers every role', () => {
    for (const role of ROLES) expect(Array.isArray(escalationChain(role))).toBe(true);
  });
});
