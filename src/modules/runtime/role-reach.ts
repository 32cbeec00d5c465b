/**
 * What an agent of each role may do on the machine with its CLI's own tools, beyond its gateway
 * verbs: edit files and run commands (developers, documenters), only run commands — the project's
 * tests, linters, `git diff` — (QA, PR reviewers), or only read (PMs, the board, the auditor). The
 * sandbox bounds every reach to the task's worktree; this keeps each role's tools to its need, and
 * keeps the rest of a CLI's tools out of every role: sub-agents, web fetch and web search (hosted
 * tools run on the vendor's side, where no network fence reaches), schedulers, background process
 * tools and memories kept outside the worktree.
 *
 * Each reach is stated in each built-in CLI's own terms (providers.ts wires them in): Claude Code's
 * `--tools` list, Codex's `features` table, Gemini CLI's `tools.core`/`tools.exclude` settings.
 * The names are those of the pinned versions (Claude Code 2.1, Codex 0.171, Gemini CLI 0.61);
 * test/agent-cli-tools.test.ts reads the tool list each CLI sends its model, role by role.
 */
import type { Role } from '../../platform/http/auth/identity.js';

export type MachineReach = 'edit' | 'run' | 'read';

const EDITORS: readonly Role[] = ['developer', 'documenter'];
const RUNNERS: readonly Role[] = ['qa', 'pr_reviewer'];

export function machineReachOf(role: Role): MachineReach {
  if (EDITORS.includes(role)) return 'edit';
  return RUNNERS.includes(role) ? 'run' : 'read';
}

/** Claude Code's built-in tools for each reach (its `--tools` and `--allowedTools` lists). */
export const CLAUDE_TOOLS: Readonly<Record<MachineReach, string>> = {
  edit: 'Read,Write,Edit,Bash,Grep,Glob',
  run: 'Read,Bash,Grep,Glob',
  read: 'Read,Grep,Glob',
};

/**
 * Codex features every role has off (codex-rs `features`; `codex features list` names them):
 * sub-agents (`multi_agent`: spawn_agent and its kin; `multi_agent_v2.disable_native_tools`: the
 * `collaboration` tools that models whose catalog entry asks for multi-agent v2 get even with the
 * feature off), goal continuation (`goals`), the sleep tool, memories (kept in CODEX_HOME), hosted
 * image generation and the standalone web search extension. Set explicitly, so an operator's
 * config.toml cannot turn them on.
 */
const CODEX_FEATURES_OFF =
  'multi_agent=false,multi_agent_v2={disable_native_tools=true},goals=false,sleep_tool=false,' +
  'memories=false,image_generation=false,standalone_web_search=false';

/**
 * Codex's `features` table for each reach, as one TOML inline table (the template passes it as
 * `-c features=…`; the rest of Codex's fence — `web_search="disabled"`, no request_user_input — is
 * the same for every role and lives in the template). `shell_tool` is Codex's shell
 * (`exec_command`/`write_stdin`): Codex 0.171 has no file tool of its own but `view_image` — it
 * reads and edits through the shell, `apply_patch` included — so the read reach has no shell and
 * edit and run differ only in the verbs the gateway gives them. (A model in Codex's built-in catalog
 * — OpenAI's own — also gets an `apply_patch` tool, or code mode, from its catalog entry, whatever
 * the reach: 0.171 has no setting for either.)
 */
export const CODEX_FEATURES: Readonly<Record<MachineReach, string>> = {
  edit: `{shell_tool=true,${CODEX_FEATURES_OFF}}`,
  run: `{shell_tool=true,${CODEX_FEATURES_OFF}}`,
  read: `{shell_tool=false,${CODEX_FEATURES_OFF}}`,
};

const GEMINI_READ_TOOLS = ['read_file', 'list_directory', 'glob', 'grep_search'] as const;

/** Gemini CLI's built-in tools for each reach (its `tools.core` allowlist). */
export const GEMINI_TOOLS: Readonly<Record<MachineReach, readonly string[]>> = {
  edit: [...GEMINI_READ_TOOLS, 'write_file', 'replace', 'run_shell_command'],
  run: [...GEMINI_READ_TOOLS, 'run_shell_command'],
  read: GEMINI_READ_TOOLS,
};

/** Every built-in tool Gemini CLI 0.61 registers (its tool names, gemini-cli-core's `*_TOOL_NAME`). */
const GEMINI_BUILTIN_TOOLS = [
  ...GEMINI_TOOLS.edit,
  'read_many_files',
  'web_fetch',
  'google_web_search',
  'invoke_agent',
  'complete_task',
  'list_background_processes',
  'read_background_output',
  'write_todos',
  'enter_plan_mode',
  'exit_plan_mode',
  'activate_skill',
  'update_topic',
  'ask_user',
  'get_internal_docs',
  'read_mcp_resource',
  'list_mcp_resources',
  'tracker_create_task',
  'tracker_update_task',
  'tracker_get_task',
  'tracker_list_tasks',
  'tracker_add_dependency',
  'tracker_visualize',
] as const;

/**
 * Gemini CLI's settings for a reach, for the run's `.gemini/settings.json`. `tools.core` keeps the
 * CLI from registering any other built-in tool, and is also a policy allowlist that denies every
 * tool it does not name, MCP tools included: it names Gaffer's (`mcp_gaffer_*`) too. `tools.exclude`
 * names every other built-in again because the worktree's own `.gemini/settings.json` (read:
 * `--skip-trust` trusts it) overrides `tools.core` but can only add to `tools.exclude` (a union; 0.61
 * calls it deprecated in favour of policy files, and still reads it). Sub-agents and skills are off
 * as well, so none is loaded (their tools, `invoke_agent` and `activate_skill`, are excluded anyway).
 */
export function geminiToolSettings(reach: MachineReach): object {
  const core = GEMINI_TOOLS[reach];
  return {
    tools: {
      core: [...core, 'mcp_gaffer_*'],
      exclude: GEMINI_BUILTIN_TOOLS.filter((name) => !core.includes(name)),
    },
    experimental: { enableAgents: false },
    skills: { enabled: false },
  };
}
