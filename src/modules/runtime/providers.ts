/**
 * The agent CLIs the process runtime knows out of the box, as command templates (see
 * command-template.ts for the placeholders), and how a configured template replaces or adds one.
 *
 * Each CLI offers its model only the built-in tools of the agent's role (role-reach.ts) plus
 * Gaffer's, and no sub-agents, web fetch or web search for any role: Claude Code through `--tools
 * {claude_tools}` (each allowed without asking); Codex through `-c` overrides — web search off
 * (`web_search=disabled`: a hosted tool, run by OpenAI), no `request_user_input` (nobody answers in
 * `exec`), and its `features` table (`{codex_features}`: the shell or not, sub-agents, goals,
 * sleep, memories and image generation off); Gemini CLI through the `tools.core`/`tools.exclude`
 * lists and the sub-agents and skills switches of its settings in the run directory (run-files.ts).
 * Each CLI gets the Gaffer MCP tool server (`gaffer agent-tools --role <route>`) its own way:
 * Claude Code through `--mcp-config <file>`, Gemini CLI through the settings in the run directory
 * it gets as its home (run-files.ts; `--skip-trust`: the worktree is not a folder it was told to
 * trust, and an untrusted one turns `--yolo` off), Codex through `-c` overrides (it
 * reads no server file) with `env_vars` forwarding the GAFFER_* variables by name and `required`
 * (an optional server still starting is left out of the model's tools).
 *
 * Codex ignores OPENAI_BASE_URL, so its template defines a model provider of its own (`gaffer`:
 * `{openai_base_url}`, the key from OPENAI_API_KEY, the Responses API over HTTP — no WebSocket
 * tries first). Its own sandbox and approvals are off: inside Gaffer's sandbox a second one cannot
 * start, and an approval nobody can give would fail every MCP tool call.
 */
import { parseCommandTemplate, TemplateError } from './command-template.js';

export interface ProviderCommand {
  /** The command line with placeholders. */
  readonly command: string;
  /** Extra environment for the CLI (values may hold placeholders). */
  readonly env?: Readonly<Record<string, string>>;
  /** Variables of the server's environment this CLI needs (its API keys, its config home). */
  readonly passEnv?: readonly string[];
}

export const BUILTIN_PROVIDERS: Readonly<Record<string, ProviderCommand>> = {
  claude: {
    command:
      'claude -p {prompt} --mcp-config {mcp_config} --strict-mcp-config ' +
      '--tools {claude_tools} --allowedTools mcp__gaffer,{claude_tools} ' +
      '--output-format stream-json --verbose --model {model}',
    passEnv: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'CLAUDE_CONFIG_DIR'],
  },
  codex: {
    command:
      'codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox ' +
      '--cd {workspace} --model {model} ' +
      '-c model_provider=gaffer -c model_providers.gaffer.name=Gaffer ' +
      '-c model_providers.gaffer.base_url={openai_base_url} -c model_providers.gaffer.env_key=OPENAI_API_KEY ' +
      '-c model_providers.gaffer.wire_api=responses -c model_providers.gaffer.supports_websockets=false ' +
      '-c mcp_servers.gaffer.command={mcp_command} -c mcp_servers.gaffer.args={mcp_args} ' +
      '-c mcp_servers.gaffer.env_vars={mcp_env_vars} -c mcp_servers.gaffer.required=true ' +
      '-c web_search=disabled -c tools.experimental_request_user_input.enabled=false ' +
      '-c features={codex_features} {prompt}',
    passEnv: ['OPENAI_API_KEY', 'CODEX_HOME'],
  },
  gemini: {
    command:
      'gemini --prompt {prompt} --yolo --skip-trust --allowed-mcp-server-names gaffer ' +
      '--output-format stream-json --model {model}',
    env: { GEMINI_CLI_HOME: '{run_dir}' },
    passEnv: [
      'GEMINI_API_KEY',
      'GOOGLE_GEMINI_BASE_URL',
      'GOOGLE_API_KEY',
      'GOOGLE_CLOUD_PROJECT',
      'GOOGLE_APPLICATION_CREDENTIALS',
    ],
  },
};

/** A provider's command as configured: a bare template string, or a full definition. */
export type ProviderSetting = string | ProviderCommand;

/**
 * The providers in force: the built-ins, each replaced by a configured one of the same name, plus
 * configured new names (`custom`, …). A template string replacing a built-in keeps its extra
 * environment and pass-through variables. Every template is checked now, so a bad one stops the
 * start rather than the first spawn.
 */
export function resolveProviders(
  configured: Readonly<Record<string, ProviderSetting>> = {},
): Record<string, ProviderCommand> {
  const providers: Record<string, ProviderCommand> = { ...BUILTIN_PROVIDERS };
  for (const [name, setting] of Object.entries(configured)) {
    const key = name.trim().toLowerCase();
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(key)) throw new TemplateError(`"${name}" is not a provider name`);
    providers[key] =
      typeof setting === 'string' ? { ...(BUILTIN_PROVIDERS[key] ?? {}), command: setting } : setting;
  }
  for (const [name, provider] of Object.entries(providers)) {
    try {
      parseCommandTemplate(provider.command);
    } catch (error) {
      throw new TemplateError(`provider ${name}: ${(error as Error).message}`);
    }
  }
  return providers;
}
