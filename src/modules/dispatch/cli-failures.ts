/**
 * An agent CLI that fails as it starts — its executable is missing, it is installed where the
 * agent sandbox cannot bind it, it rejects the command line the template gave it, its key is
 * refused (read off its output: runtime's cli-auth-failures.ts) — fails every spawn the same way.
 * The dispatcher backs such an agent off (dispatcher.ts) instead of respawning it at once, whether
 * the spawn itself threw or the run started and failed, and the CEO gets one notification per
 * cause (per provider and message, its volatile parts aside — causeKey; across replicas: the shared
 * cache decides who sends it) that
 * quotes the CLI's own words and says what to do.
 */
import type { Cache } from '../../platform/cache/types.js';
import { AppError } from '../../platform/http/errors.js';
import type { EndedRun } from '../runtime/index.js';

/** A failed run that ended this soon after it started failed on start. */
export const FAST_FAILURE_MS = 10_000;
/** How long one cause is not told again. */
const NOTICE_TTL_MS = 24 * 60 * 60_000;

export interface CliFailure {
  agentSlug: string;
  taskId: string | null;
  /** The agent CLI (provider template) that failed. */
  provider: string;
  /** What went wrong, in the CLI's words where it said any (its last stderr line). */
  cause: string;
  /** What to do, when the failure said it (the path to add to GAFFER_AGENT_SANDBOX_READ); else by the cause. */
  remedy?: string | null;
}

/**
 * Spawn errors that mean the CLI cannot be started at all, so every spawn of it throws the same:
 * not on the PATH, or installed where the sandbox cannot bind it (the 503 names the path to add).
 */
const CLI_START_CODES = new Set(['agent_cli_unavailable', 'agent_cli_outside_sandbox']);

/** The failure a spawn that threw stands for, when it is the CLI's own (the provider as the error names it). */
export function cliStartFailure(
  error: unknown,
): { cause: string; remedy: string | null; provider: string | null } | null {
  if (!(error instanceof AppError) || !CLI_START_CODES.has(error.code)) return null;
  const provider = (error.details as { provider?: unknown } | undefined)?.provider;
  return {
    cause: error.message,
    remedy: error.code === 'agent_cli_outside_sandbox' && error.remediate ? sentence(error.remediate) : null,
    provider: typeof provider === 'string' ? provider : null,
  };
}

/**
 * Whether a run could not get going: it failed within moments of its start, or it was stopped
 * because the provider refused its credentials (however long the CLI had been retrying them).
 */
export function failedOnStart(ended: EndedRun): boolean {
  if (ended.exit.outcome !== 'failed') return false;
  return ended.refused !== null || ended.exit.endedAt.getTime() - ended.startedAt.getTime() < FAST_FAILURE_MS;
}

/**
 * A cause as the notice's key (pure): its volatile parts — file paths, timestamps, UUIDs, long hex
 * or decimal ids — stand as placeholders, so the same failure told with a fresh error-report path
 * or request id is the same cause. URLs and short numbers (a status, a port) stay.
 */
export function causeKey(cause: string): string {
  return cause
    .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}[:-]\d{2}[:-]\d{2}(?:[.,-]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/(^|[\s'"(=[])(?:~|\.{1,2})?\/[^\s'"`)\]]+/g, '$1<path>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{12,}\b/gi, '<id>')
    .replace(/\b\d{6,}\b/g, '<n>')
    .slice(0, 300);
}

const sentence = (text: string) =>
  `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;

/** What the CEO can do about a cause, by what it says. */
export function remedyFor(provider: string, cause: string): string {
  if (/could not start|ENOENT|not found on|command not found/i.test(cause)) {
    return `Install the ${provider} CLI on the server's PATH (README, "Put a real company to work"), or run it through GAFFER_AGENT_PROVIDER=custom and a GAFFER_AGENT_COMMAND_CUSTOM that finds it.`;
  }
  if (
    /unexpected argument|unknown (option|argument|flag)|unrecognized|invalid (option|argument)|usage:/i.test(
      cause,
    )
  ) {
    return `The installed ${provider} CLI refused its command line: \`gaffer doctor\` shows its version against the tested one; install that one, or give it a command line it takes (GAFFER_AGENT_PROVIDER=custom and GAFFER_AGENT_COMMAND_CUSTOM).`;
  }
  if (
    /\b401\b|unauthori[sz]ed|api key|auth(entication)? (method|failed|error)|invalid key|permission denied/i.test(
      cause,
    )
  ) {
    return 'The model provider refused the credentials: set or replace the key on Settings → Models & agents (or in the environment variable the CLI reads).';
  }
  return "Open the agent's page for the run's whole output.";
}

export class CliFailureNotices {
  constructor(
    private readonly deps: {
      cache: Pick<Cache, 'incr'>;
      notifyCeo(subject: string, body: string, taskId: string | null): Promise<void>;
    },
  ) {}

  /** Tells the CEO about the failure unless its cause was told already (here or on another replica). */
  async report(failure: CliFailure): Promise<boolean> {
    const key = `cli-failure:${failure.provider}:${causeKey(failure.cause)}`;
    if ((await this.deps.cache.incr(key, { ttlMs: NOTICE_TTL_MS })) !== 1) return false;
    await this.deps.notifyCeo(
      `The ${failure.provider} agent CLI fails as it starts`,
      `${failure.agentSlug}'s ${failure.provider} run failed on start: ${failure.cause}\n\n` +
        `${failure.remedy ?? remedyFor(failure.provider, failure.cause)}\n\n` +
        'Agents on it are backed off between tries; this cause is not told again for a day.',
      failure.taskId,
    );
    return true;
  }
}
