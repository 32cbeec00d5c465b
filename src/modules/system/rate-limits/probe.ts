/**
 * The probe pass (the `system.rate-limit-probe` scheduler loop: one replica per pass under its
 * lease). Each parked provider whose window has ended is tried: a configured provider with a tiny
 * completion through the providers module's probe, an agent CLI kind (nothing Gaffer can call) by
 * the end of the window alone. Success lifts it (RATE_LIMIT_LIFTED; the parked agents resume and
 * the dispatcher starts them again). A throttled or unreachable answer is a failure: the next try
 * backs off (doubling, capped, or longer when the provider asks), the CEO is told once per
 * episode after NOTIFY_CEO_AFTER_FAILURES, and after GIVE_UP_AFTER_FAILURES the parking gives up and
 * lifts it. An answer that is neither (a bad key, a rejected request) lifts it too: the provider
 * is not throttling, and parking would not mend it.
 */
import type { ProbeResult } from '../../../platform/llm/index.js';
import {
  GIVE_UP_AFTER_FAILURES,
  NOTIFY_CEO_AFTER_FAILURES,
  PROBE_INTERVAL_SECONDS,
  probeBackoffSeconds,
} from './rules.js';
import type { RateLimitService } from './service.js';
import type { RateLimitRow } from './store.js';

export const RATE_LIMIT_PROBE_LOOP = 'system.rate-limit-probe';
export const RATE_LIMIT_PROBE_INTERVAL_MS = PROBE_INTERVAL_SECONDS * 1000;

export interface ProbeDeps {
  service: RateLimitService;
  now(): Date;
  /** Names of the configured model providers. */
  configured(): Promise<Set<string>>;
  /** Tries a configured provider (the providers module's probe). */
  probe(provider: string, signal: AbortSignal): Promise<ProbeResult>;
  notifyCeo(subject: string, body: string): Promise<void>;
  log?: { warn(details: object, message: string): void };
}

export interface ProbeReport {
  lifted: string[];
  failed: string[];
  gaveUp: string[];
}

/** Failures that say the provider still cannot take work; anything else answered and is not throttling. */
const STILL_DOWN = new Set(['rate_limited', 'overloaded', 'unreachable', 'timeout', 'provider_error']);

export async function probePass(deps: ProbeDeps, signal: AbortSignal): Promise<ProbeReport> {
  const report: ProbeReport = { lifted: [], failed: [], gaveUp: [] };
  const due = await deps.service.store.due(deps.now());
  if (due.length === 0) return report;
  const configured = await deps.configured();
  for (const row of due) {
    if (signal.aborted) break;
    if (!configured.has(row.provider)) {
      if (await lift(deps, row.provider)) report.lifted.push(row.provider);
      continue;
    }
    const result = await deps.probe(row.provider, signal);
    if (result.ok || !STILL_DOWN.has(result.error.kind)) {
      if (await lift(deps, row.provider)) report.lifted.push(row.provider);
      continue;
    }
    await failed(deps, row, result.error.retry_after_seconds ?? null, result.error.message, report);
  }
  return report;
}

async function lift(deps: ProbeDeps, provider: string): Promise<boolean> {
  const row = await deps.service.store.lift(provider, deps.now());
  if (!row) return false;
  await deps.service.announceLift(row);
  return true;
}

async function failed(
  deps: ProbeDeps,
  row: RateLimitRow,
  retryAfterSeconds: number | null,
  message: string,
  report: ProbeReport,
): Promise<void> {
  const failures = row.probeFailures + 1;
  if (failures >= GIVE_UP_AFTER_FAILURES) {
    if (await lift(deps, row.provider)) {
      report.gaveUp.push(row.provider);
      deps.log?.warn(
        { provider: row.provider, probe_failures: failures },
        'rate-limit parking: the provider still fails its probe; giving up and lifting it',
      );
    }
    return;
  }
  const now = deps.now();
  const next = new Date(now.getTime() + probeBackoffSeconds(failures, retryAfterSeconds) * 1000);
  const updated = await deps.service.store.probeFailed(row.provider, now, next);
  if (!updated) return;
  report.failed.push(row.provider);
  if (
    updated.probeFailures >= NOTIFY_CEO_AFTER_FAILURES &&
    (await deps.service.store.claimCeoNotice(row.provider))
  ) {
    await deps.notifyCeo(
      `Provider ${row.provider} is still ${row.kind.replace('_', ' ')}`,
      `Model provider ${row.provider} has been parked since ${row.hitAt.toISOString()} and failed ` +
        `${updated.probeFailures} probes (last: ${message}). Agents on it wait: ` +
        `${updated.affectedAgents.join(', ') || 'none running'}. It is tried again at ` +
        `${updated.resumeAt.toISOString()}; after ${GIVE_UP_AFTER_FAILURES} failed probes it is lifted anyway. ` +
        'Check its quota or billing, or route the agents to another provider (PUT /api/providers/routing).',
    );
  }
}
