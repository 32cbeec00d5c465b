/**
 * The files one process run needs, in a private directory of its own (mode 0700, files 0600):
 * the prompt and the MCP configuration that plugs the Gaffer tool server into the agent CLI. The
 * token is not in them: the MCP entry refers to the identity variables by name (`${NAME}`, which
 * Claude Code and Gemini CLI expand from the environment the CLI got). Removed when the run ends.
 *
 * The directory is also the Gemini CLI's home for the run (`GEMINI_CLI_HOME`): its
 * `.gemini/settings.json` holds the same `mcpServers`, the API-key sign-in and the built-in tools of
 * the agent's role (role-reach.ts: its allow and exclude lists, no sub-agents). (Gemini CLI skips a
 * system settings file under a world-writable directory such as /tmp, and with a base URL set it
 * picks a sign-in it then refuses, so neither can come from the environment.)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '../../platform/http/auth/identity.js';
import { gatewayRouteOf } from '../lifecycle/index.js';
import { MCP_ENV_NAMES } from './agent-env.js';
import { geminiToolSettings, type MachineReach } from './role-reach.js';

/** How to start the Gaffer MCP tool server of one role. */
export interface McpServerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The command that runs this Gaffer installation's CLI: the current node executable, the flags it
 * was started with that load code (a TypeScript loader under `tsx`; never `--inspect`), and the
 * main entry. Tests, and anything not started through `gaffer`, pass their own.
 */
export function defaultGafferCommand(): string[] {
  const entry = process.argv[1];
  if (!entry) throw new Error('no main entry to run `gaffer agent-tools` from; configure the command');
  const loaderFlags = process.execArgv.filter((flag) => !flag.startsWith('--inspect'));
  return [process.execPath, ...loaderFlags, entry];
}

/** `<gaffer> agent-tools --role <route>` for the role's gateway route; null for a role without verbs. */
export function mcpServerFor(gafferCommand: readonly string[], role: Role): McpServerCommand | null {
  const route = gatewayRouteOf(role);
  const [command, ...prefix] = gafferCommand;
  if (!route || !command) return null;
  return { command, args: [...prefix, 'agent-tools', '--role', route] };
}

/** The `mcpServers` document Claude Code (`--mcp-config`) and Gemini CLI (in its settings) read. */
export function mcpConfigDocument(server: McpServerCommand | null): object {
  if (!server) return { mcpServers: {} };
  const env = Object.fromEntries(MCP_ENV_NAMES.map((name) => [name, `\${${name}}`]));
  return { mcpServers: { gaffer: { command: server.command, args: [...server.args], env } } };
}

export interface RunFiles {
  readonly dir: string;
  readonly promptFile: string;
  readonly mcpConfigFile: string;
  /** The Gemini CLI settings (`<dir>/.gemini/settings.json`). */
  readonly geminiSettingsFile: string;
  /** Removes the directory and everything in it (never throws). */
  remove(): Promise<void>;
}

export async function writeRunFiles(options: {
  /** Parent of the run directories; the system temp directory by default. */
  root?: string | undefined;
  slug: string;
  prompt: string;
  mcpConfig: object;
  /** The agent's machine reach: which built-in tools its Gemini CLI settings keep. */
  reach: MachineReach;
}): Promise<RunFiles> {
  const safeSlug = options.slug.replace(/[^a-z0-9-]/gi, '_').slice(0, 40);
  const dir = await mkdtemp(join(options.root ?? tmpdir(), `gaffer-run-${safeSlug}-`));
  const remove = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
  try {
    const promptFile = join(dir, 'prompt.md');
    const mcpConfigFile = join(dir, 'mcp.json');
    await writeFile(promptFile, options.prompt, { mode: 0o600 });
    await writeFile(mcpConfigFile, `${JSON.stringify(options.mcpConfig, null, 2)}\n`, { mode: 0o600 });
    await mkdir(join(dir, '.gemini'), { mode: 0o700 });
    const geminiSettingsFile = join(dir, '.gemini', 'settings.json');
    const geminiSettings = {
      ...options.mcpConfig,
      security: { auth: { selectedType: 'gemini-api-key' } },
      ...geminiToolSettings(options.reach),
    };
    await writeFile(geminiSettingsFile, `${JSON.stringify(geminiSettings, null, 2)}\n`, { mode: 0o600 });
    return { dir, promptFile, mcpConfigFile, geminiSettingsFile, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
