/** Each role's machine reach, and the tools each reach gets in each built-in CLI's terms. */
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../platform/http/auth/identity.js';
import {
  CLAUDE_TOOLS,
  CODEX_FEATURES,
  GEMINI_TOOLS,
  geminiToolSettings,
  machineReachOf,
} from './role-reach.js';

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

  it('turns Codex sub-agents, goals, sleep, memories, image generation and web search off for every reach, its shell on only where commands run', () => {
    for (const features of Object.values(CODEX_FEATURES)) {
      expect(features).toMatch(/^\{.*\}$/);
      for (const off of [
        'multi_agent',
        'goals',
        'sleep_tool',
        'memories',
        'image_generation',
        'standalone_web_search',
      ]) {
        expect(features).toContain(`${off}=false`);
      }
      expect(features).toContain('multi_agent_v2={disable_native_tools=true}');
    }
    expect(CODEX_FEATURES.edit).toContain('shell_tool=true');
    expect(CODEX_FEATURES.run).toContain('shell_tool=true');
    expect(CODEX_FEATURES.read).toContain('shell_tool=false');
  });

  it('allows Gemini CLI the reach’s tools and Gaffer’s, excludes every other built-in, and turns sub-agents off', () => {
    for (const reach of ['edit', 'run', 'read'] as const) {
      const settings = geminiToolSettings(reach) as {
        tools: { core: string[]; exclude: string[] };
        experimental: { enableAgents: boolean };
      };
      expect(settings.tools.core).toEqual([...GEMINI_TOOLS[reach], 'mcp_gaffer_*']);
      expect(settings.tools.exclude.filter((tool) => settings.tools.core.includes(tool))).toEqual([]);
      expect(settings.tools.exclude).toEqual(
        expect.arrayContaining([
          'web_fetch',
          'google_web_search',
          'invoke_agent',
          'list_background_processes',
        ]),
      );
      expect(settings.experimental.enableAgents).toBe(false);
    }
    expect(geminiToolSettings('run')).toMatchObject({
      tools: { exclude: expect.arrayContaining(['write_file', 'replace']) },
    });
    expect(geminiToolSettings('read')).toMatchObject({
      tools: { exclude: expect.arrayContaining(['run_shell_command']) },
    });
  });
});
