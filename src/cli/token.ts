/**
 * `gaffer token`: prints a token for the CEO, a roster agent (by slug or UUID) or any identity.
 * A roster agent is read from the database; when a running server holds the embedded database,
 * from that server over HTTP instead (the CLI signs itself a short CEO token with the same secret).
 */
import type { Config } from '../config.js';
import { rosterTokenSubject, type TokenSubjectLookup } from '../modules/agents/index.js';
import { DataDirInUseError } from '../platform/db/data-dir-lock.js';
import {
  baseUrl,
  CEO_IDENTITY,
  expiringToken,
  isRole,
  loadOrCreateSecret,
  staticToken,
} from '../platform/http/auth/index.js';
import type { TokenSubject } from '../platform/http/auth/tokens.js';
import { openConfiguredDatabase, StartupError } from '../server.js';
import { parseCommand, usageError } from './args.js';
import { reason } from './startup-failure.js';

const OPTIONS = { role: { type: 'string' }, team: { type: 'string' }, ttl: { type: 'string' } } as const;

export async function runToken(config: () => Config, args: string[]): Promise<number> {
  const parsed = parseCommand('token', args, OPTIONS, 1);
  if (!parsed.ok) return parsed.exitCode;
  const { values, positionals } = parsed;
  const [id] = positionals;
  if (!id) return usageError('token', 'name an identity (ceo, an agent slug, or an id with --role)').exitCode;
  const ttl = values.ttl === undefined ? undefined : Number(values.ttl);
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) {
    console.error('gaffer token: --ttl must be a positive number of seconds');
    return 2;
  }
  const settings = config();
  let subject: TokenSubject;
  if (values.role !== undefined) {
    subject = { id, role: values.role, team: values.team ?? '' };
    if (!isRole(subject.role)) {
      console.error(`gaffer token: --role must be one of the roles (got "${subject.role}")`);
      return 2;
    }
  } else if (id === 'ceo') {
    subject = CEO_IDENTITY;
  } else {
    const found = await rosterSubject(settings, id);
    if (!found) return 2;
    subject = found;
  }
  const secret = loadOrCreateSecret(settings);
  console.log(ttl ? expiringToken(secret, subject, ttl) : staticToken(secret, subject));
  return 0;
}

/** The roster agent's UUID, role and team (agents sign over their UUID); null after reporting why not. */
async function rosterSubject(config: Config, slug: string): Promise<TokenSubject | null> {
  const lookup = await lookUp(config, slug);
  if (!lookup.found) {
    console.error(
      lookup.reason === 'retired'
        ? `gaffer token: agent "${slug}" is retired; its tokens no longer work`
        : `gaffer token: no agent "${slug}" in the roster (see GET /api/agents, ` +
            'or give --role and --team for an identity outside the roster)',
    );
    return null;
  }
  const { id, role, team } = lookup.subject;
  console.error(
    `gaffer token: ${lookup.slug} — send with X-Agent-ID: ${id}, X-Agent-Role: ${role}` +
      `${team ? `, X-Agent-Team: ${team}` : ''}, X-Agent-Token: <the token>`,
  );
  return lookup.subject;
}

async function lookUp(config: Config, slug: string): Promise<TokenSubjectLookup> {
  let database: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    database = await openConfiguredDatabase(config);
  } catch (error) {
    if (error instanceof StartupError && error.cause instanceof DataDirInUseError)
      return fromRunningServer(config, slug, error.cause);
    throw error;
  }
  try {
    return await rosterTokenSubject(database.db, slug);
  } finally {
    await database.close();
  }
}

/** Raised when neither the database nor the server that holds it can answer. */
export class TokenLookupError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'TokenLookupError';
  }
}

interface AgentView {
  id: string;
  slug: string;
  role: string;
  team: string | null;
  retired: boolean;
}

/** Reads the agent from the server holding the data directory, as the CEO (a 60-second token). */
async function fromRunningServer(
  config: Config,
  slug: string,
  held: DataDirInUseError,
): Promise<TokenSubjectLookup> {
  const base = baseUrl({ ...config, publicUrl: undefined });
  const token = expiringToken(loadOrCreateSecret(config), CEO_IDENTITY, 60);
  const holder = `the embedded database is held by process ${held.holder}`;
  let response: Response;
  try {
    response = await fetch(`${base}/api/agents/${encodeURIComponent(slug)}`, {
      headers: { 'x-agent-token': token },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const cause = reason((error as Error).cause ?? error).text;
    throw new TokenLookupError(
      `${holder}, and no Gaffer answers at ${base} (${cause})`,
      'set GAFFER_HOST/GAFFER_PORT to where that server listens, or stop it and run gaffer token again',
    );
  }
  if (response.status === 404) return { found: false, reason: 'unknown' };
  if (response.status === 401 || response.status === 403)
    throw new TokenLookupError(
      `${holder}, and the server at ${base} refused a CEO token signed with this secret (${response.status})`,
      'run gaffer token with the same GAFFER_AUTH_SECRET (or GAFFER_DATA_DIR) as that server',
    );
  const agent = (await response.json().catch(() => null)) as AgentView | null;
  if (!response.ok || typeof agent?.id !== 'string' || typeof agent.role !== 'string')
    throw new TokenLookupError(
      `${holder}, and ${base} did not answer as Gaffer does (HTTP ${response.status})`,
      'set GAFFER_HOST/GAFFER_PORT to where that Gaffer listens, or stop it and run gaffer token again',
    );
  if (agent.retired) return { found: false, reason: 'retired' };
  return {
    found: true,
    slug: agent.slug,
    subject: { id: agent.id, role: agent.role, team: agent.team ?? '' },
  };
}
