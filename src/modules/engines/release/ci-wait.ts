/**
 * Waiting for the release commit's own CI: polls the commit's CI (scoped to the release workflow)
 * every `pollMs` until it is green, turns red (fail at once: a re-run means a fresh approve), or
 * `timeoutMs` passes. Abortable between and during polls.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Forge } from '../../../platform/forge/index.js';
import { commitGate, type GateVerdict } from './gate.js';

export type CiWaitResult = { ok: true; verdict: GateVerdict } | { ok: false; detail: string };

export interface CiWaitOptions {
  workflow: string;
  pollMs: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Milliseconds now (default Date.now), for the deadline. */
  now?: () => number;
}

export async function waitForCommitCi(
  forge: Pick<Forge, 'commitCiStatus'>,
  sha: string,
  options: CiWaitOptions,
): Promise<CiWaitResult> {
  const now = options.now ?? Date.now;
  const deadline = now() + options.timeoutMs;
  let last: GateVerdict | null = null;
  for (;;) {
    options.signal.throwIfAborted();
    last = await commitGate(forge, 'the release commit', sha, options.workflow, options.signal);
    if (last.state === 'green') return { ok: true, verdict: last };
    if (last.state === 'red') return { ok: false, detail: last.detail };
    const left = deadline - now();
    if (left <= 0) break;
    await sleep(Math.min(options.pollMs, left), undefined, { signal: options.signal });
  }
  return {
    ok: false,
    detail: `${last?.detail ?? `CI of the release commit at ${sha.slice(0, 8)} is unknown`}; it did not turn green within ${Math.round(options.timeoutMs / 1000)} s`,
  };
}
