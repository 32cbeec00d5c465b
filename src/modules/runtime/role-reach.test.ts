/** Each role's machine reach, and the Claude Code tools each reach gets. */
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../platform/http/auth/identity.js';
import { CLAUDE_TOOLS, machineReachOf } from './role-reach.js';

describe('machine reach of the roles', () => {
  it('lets only developers and documenters edit, QA and PR reviewers run commands, every other role read', () => {
    const byReach = (reach: string) => ROLES.filter((role) => machineReachOf(role) === reach);
    expect(byReach('edit')).toEqual(['developer', 'documenter']);
    expect(byReach('run')).toEqual(['qa', 'pr_reviewer']);
    expect(byReach('read')).toEqual(
      ROLES.filter((role) => !['developer', 'documenter', 'qa', 'pr_reviewer'].includes(role)),
    );
  });

  it('gives Claude Code a shell only where commands run, write tools only where files are edited, never the web', () => {
    expect(CLAUDE_TOOLS.read.split(',')).not.toContain('Bash');
    expect(CLAUDE_TOOLS.run.split(',')).toContain('Bash');
    for (const tools of Object.values(CLAUDE_TOOLS)) {
      expect(tools.split(',')).not.toContain('WebFetch');
      expect(tools.split(',')).not.toContain('WebSearch');
      expect(tools.split(',')).not.toContain('Agent');
    }
    expect(CLAUDE_TOOLS.run.split(',').filter((tool) => ['Write', 'Edit'].includes(tool))).toEqual([]);
    expect(CLAUDE_TOOLS.edit.split(',')).toEqual(expect.arrayContaining(['Write', 'Edit', 'Bash']));
  });
});
