/**
 * Who the agent is and where its gateway lives, read from the environment the runtime gives the
 * agent CLI (and the CLI passes on to this server): GAFFER_GATEWAY_URL, GAFFER_AGENT_ID,
 * GAFFER_AGENT_ROLE, GAFFER_AGENT_TEAM, GAFFER_AGENT_TOKEN. Nothing else is read; the token is
 * kept for the request headers and never appears in a message.
 */
import { type GatewayRoute, gatewayRouteOf } from '../modules/lifecycle/index.js';
import { isRole, type Role } from '../platform/http/auth/identity.js';

export interface GatewayConnection {
  /** Origin and path of the Gaffer service (no trailing slash, query or credentials): safe to print. */
  readonly baseUrl: string;
  readonly agentId: string;
  readonly agentRole: Role;
  /** Empty when the agent has no team. */
  readonly agentTeam: string;
  /** Absent when the gateway runs without secure mode (development). */
  readonly token: string | undefined;
}

export type ConnectionResult =
  | { readonly ok: true; readonly connection: GatewayConnection }
  | { readonly ok: false; readonly message: string };

const read = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/** The agent's role: GAFFER_AGENT_ROLE, or `--role` itself when it names a role; it must use `route`. */
function agentRole(
  env: NodeJS.ProcessEnv,
  route: GatewayRoute,
  cliRole: string,
): { role: Role } | { message: string } {
  const claimed = read(env, 'GAFFER_AGENT_ROLE')?.toLowerCase();
  if (claimed === undefined) {
    const fallback = cliRole.trim().toLowerCase();
    if (isRole(fallback)) return { role: fallback };
    return { message: `--role ${route} serves several roles: set GAFFER_AGENT_ROLE to the agent's role` };
  }
  if (!isRole(claimed)) return { message: `GAFFER_AGENT_ROLE "${claimed}" is not a role` };
  if (gatewayRouteOf(claimed) !== route) {
    return { message: `GAFFER_AGENT_ROLE "${claimed}" does not use the ${route} verbs that --role asks for` };
  }
  return { role: claimed };
}

/** The connection for an agent serving `route` (asked for as `cliRole`), or what is missing. */
export function connectionFromEnv(
  env: NodeJS.ProcessEnv,
  route: GatewayRoute,
  cliRole: string,
): ConnectionResult {
  const gateway = read(env, 'GAFFER_GATEWAY_URL');
  if (!gateway) return { ok: false, message: 'set GAFFER_GATEWAY_URL to the Gaffer service URL' };
  let url: URL;
  try {
    url = new URL(gateway);
  } catch {
    return { ok: false, message: `GAFFER_GATEWAY_URL is not a URL (got "${gateway}")` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `GAFFER_GATEWAY_URL must be an http(s) URL (got "${url.protocol}")` };
  }
  if (url.username || url.password) {
    return { ok: false, message: 'GAFFER_GATEWAY_URL must not carry credentials; use GAFFER_AGENT_TOKEN' };
  }
  const agentId = read(env, 'GAFFER_AGENT_ID');
  if (!agentId) return { ok: false, message: "set GAFFER_AGENT_ID to the agent's UUID or slug" };
  const role = agentRole(env, route, cliRole);
  if ('message' in role) return { ok: false, message: role.message };
  return {
    ok: true,
    connection: {
      baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}`,
      agentId,
      agentRole: role.role,
      agentTeam: read(env, 'GAFFER_AGENT_TEAM') ?? '',
      token: read(env, 'GAFFER_AGENT_TOKEN'),
    },
  };
}
