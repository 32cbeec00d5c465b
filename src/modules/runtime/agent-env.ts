/**
 * The environment an agent process gets: a scrubbed base of the server's own (locale, PATH, HOME,
 * proxies, CA certificates — never a GAFFER_* variable, so neither the auth secret nor the database
 * URL), the variables the provider needs (its API key), the provider's extra entries, and last the
 * agent's identity for the gateway and the MCP tool server.
 */
import type { SpawnSpec } from './contract.js';

/** Variables of the server's environment every agent gets when they are set. */
export const BASE_ENV_NAMES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
] as const;

/** The identity variables the MCP tool server (`gaffer agent-tools`) reads; always set. */
export const MCP_ENV_NAMES = [
  'GAFFER_GATEWAY_URL',
  'GAFFER_AGENT_ID',
  'GAFFER_AGENT_ROLE',
  'GAFFER_AGENT_TEAM',
  'GAFFER_AGENT_TOKEN',
] as const;

const isServerOnly = (name: string) => name.toUpperCase().startsWith('GAFFER_');

export interface AgentEnvInput {
  spec: SpawnSpec;
  runId: string;
  /** The server's environment (process.env). */
  serverEnv: NodeJS.ProcessEnv;
  /** More names to pass through from the server's environment (provider keys, operator choices). */
  passEnv?: readonly string[];
  /** The provider's own entries (already filled in). */
  extra?: Readonly<Record<string, string>>;
  /** The routed model's entries (GAFFER_MODEL*, the provider key under the CLI's name); set last. */
  model?: Readonly<Record<string, string>>;
}

export function agentEnvironment(input: AgentEnvInput): Record<string, string> {
  const { spec, serverEnv } = input;
  const env: Record<string, string> = {};
  const pass = new Set<string>([...BASE_ENV_NAMES, ...(input.passEnv ?? [])]);
  for (const [name, value] of Object.entries(serverEnv)) {
    if (value === undefined || isServerOnly(name)) continue;
    if (pass.has(name) || name.startsWith('LC_')) env[name] = value;
  }
  for (const [name, value] of Object.entries(input.extra ?? {})) {
    if (!isServerOnly(name)) env[name] = value;
  }
  env.GAFFER_GATEWAY_URL = spec.gatewayUrl;
  env.GAFFER_AGENT_ID = spec.agent.id;
  env.GAFFER_AGENT_SLUG = spec.agent.slug;
  env.GAFFER_AGENT_ROLE = spec.agent.role;
  env.GAFFER_AGENT_TEAM = spec.agent.team ?? '';
  env.GAFFER_AGENT_TOKEN = spec.token;
  env.GAFFER_RUN_ID = input.runId;
  if (spec.taskId) env.GAFFER_TASK_ID = spec.taskId;
  Object.assign(env, input.model ?? {});
  return env;
}
