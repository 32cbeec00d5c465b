/**
 * Where a run's model lives, for the network fence: the host and port the agent CLI sends its model
 * requests to are the one destination every run may reach besides its gateway. That is the routed
 * provider's base URL (Settings → Models & agents) when the agent is routed, else the base URL the
 * CLI reads from its environment, else its vendor's API.
 */
import { isIP } from 'node:net';
import type { PlaceholderValues } from './command-template.js';

interface CliEndpoint {
  /** The URL the CLI calls, from its environment and the filled-in template values. */
  url(env: Readonly<Record<string, string>>, values: PlaceholderValues): string;
}

const CLI_ENDPOINTS: Readonly<Record<string, CliEndpoint>> = {
  claude: { url: (env) => env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com' },
  // Codex reads its base URL only from its configuration: the template's `{openai_base_url}`.
  codex: { url: (_env, values) => values.openai_base_url ?? 'https://api.openai.com/v1' },
  gemini: { url: (env) => env.GOOGLE_GEMINI_BASE_URL || 'https://generativelanguage.googleapis.com' },
};

/** `host:port` of a URL as an allowlist entry (an IPv6 host in brackets); null when it is not one. */
export function allowEntryOfUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * The allowlist entries of a run's model: its route's base URL, and the URL its CLI calls (a custom
 * CLI: only the route's, the operator allows the rest).
 */
export function modelAllowEntries(
  provider: string,
  routeBaseUrl: string | null,
  env: Readonly<Record<string, string>>,
  values: PlaceholderValues,
): string[] {
  const entries = [routeBaseUrl, CLI_ENDPOINTS[provider]?.url(env, values)].map((url) =>
    url ? allowEntryOfUrl(url) : null,
  );
  return [...new Set(entries.filter((entry) => entry !== null))];
}
