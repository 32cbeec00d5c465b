/**
 * The dispatcher's settings: from the configuration (GAFFER_DISPATCH_*, GAFFER_STALE_CLAIM_SECONDS,
 * GAFFER_AGENT_RUNTIME/PROVIDER, the kill grace, the token lifetime, the data directory, the public
 * URL), each overridable by an option (tests), plus a few fixed defaults.
 */
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { baseUrl } from '../../platform/http/auth/index.js';
import type { RuntimeKind } from '../runtime/index.js';
import type { SpawnSettings } from './spawner.js';

export interface DispatchOptions {
  /** Run the dispatch loop at all (the reaper and the budget sweep always run). Default true. */
  enabled?: boolean;
  /** Seconds between dispatch passes besides the wakes on task transitions. Default 30. */
  tickIntervalSeconds?: number;
  /** Seconds between stale-claim reaper passes. Default 60. */
  reaperIntervalSeconds?: number;
  /** Seconds between budget sweeps. Default 60. */
  budgetIntervalSeconds?: number;
  /** A claim without a heartbeat for this long is stale. Default 600. */
  staleClaimSeconds?: number;
  /** Seconds between SIGTERM and SIGKILL when agents are stopped. Default GAFFER_KILL_GRACE_SECONDS. */
  killGraceSeconds?: number;
  /** Spawns without progress after which a task is stalled. Default 3. */
  respawnLimit?: number;
  /** Runtime the dispatcher spawns on. Default `process`. */
  runtime?: RuntimeKind;
  /** Agent CLI (provider) of the spawns. Default `claude`. */
  provider?: string;
  /** Base URL agents reach the gateway at. Default the service's own (GAFFER_PUBLIC_URL or host:port). */
  gatewayUrl?: string;
  /** Lifetime of the token minted per spawn. Default GAFFER_AGENT_TOKEN_TTL_SECONDS. */
  tokenTtlSeconds?: number;
  /** After the CEO stops an agent, the dispatcher leaves it alone this long (a manual spawn ends it). Default 600. */
  manualStopHoldSeconds?: number;
  /** Slug of the PR reviewer keeping the root gate. Default `pr-reviewer-1`. */
  rootGateReviewer?: string;
}

export interface ResolvedDispatchOptions
  extends Required<Omit<DispatchOptions, 'runtime' | 'provider' | 'gatewayUrl' | 'tokenTtlSeconds'>> {
  spawn: SpawnSettings;
}

/** Defaults of the options no GAFFER_* variable sets (the others come from the config). */
export const DISPATCH_DEFAULTS = {
  reaperIntervalSeconds: 60,
  budgetIntervalSeconds: 60,
  manualStopHoldSeconds: 600,
  rootGateReviewer: 'pr-reviewer-1',
} as const;

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(
      `dispatch option ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number (got ${value})`,
    );
  }
  return value;
}

export function resolveDispatchOptions(
  config: Pick<
    Config,
    | 'dataDir'
    | 'killGraceSeconds'
    | 'agentTokenTtlSeconds'
    | 'publicUrl'
    | 'host'
    | 'port'
    | 'dispatchEnabled'
    | 'dispatchIntervalSeconds'
    | 'staleClaimSeconds'
    | 'dispatchRespawnLimit'
    | 'agentRuntime'
    | 'agentProvider'
  >,
  options: DispatchOptions = {},
): ResolvedDispatchOptions {
  const d = DISPATCH_DEFAULTS;
  return {
    enabled: options.enabled ?? config.dispatchEnabled,
    tickIntervalSeconds: positive(
      'tickIntervalSeconds',
      options.tickIntervalSeconds ?? config.dispatchIntervalSeconds,
    ),
    reaperIntervalSeconds: positive(
      'reaperIntervalSeconds',
      options.reaperIntervalSeconds ?? d.reaperIntervalSeconds,
    ),
    budgetIntervalSeconds: positive(
      'budgetIntervalSeconds',
      options.budgetIntervalSeconds ?? d.budgetIntervalSeconds,
    ),
    staleClaimSeconds: positive('staleClaimSeconds', options.staleClaimSeconds ?? config.staleClaimSeconds),
    killGraceSeconds: positive('killGraceSeconds', options.killGraceSeconds ?? config.killGraceSeconds, true),
    respawnLimit: Math.floor(positive('respawnLimit', options.respawnLimit ?? config.dispatchRespawnLimit)),
    manualStopHoldSeconds: positive(
      'manualStopHoldSeconds',
      options.manualStopHoldSeconds ?? d.manualStopHoldSeconds,
      true,
    ),
    rootGateReviewer: options.rootGateReviewer ?? d.rootGateReviewer,
    spawn: {
      runtime: options.runtime ?? config.agentRuntime,
      // The built-in simulated agents are their own provider; only agent CLIs have a choice.
      provider:
        options.provider ??
        ((options.runtime ?? config.agentRuntime) === 'scripted' ? 'scripted' : config.agentProvider),
      gatewayUrl: options.gatewayUrl ?? baseUrl(config),
      tokenTtlSeconds: positive('tokenTtlSeconds', options.tokenTtlSeconds ?? config.agentTokenTtlSeconds),
      scratchRoot: join(config.dataDir, 'dispatch', 'scratch'),
    },
  };
}
