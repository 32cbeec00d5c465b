/**
 * The quality gate: the head rung's CI on its tip commit, scoped to GAFFER_RELEASE_CI_WORKFLOW.
 * Green only on `success`; a run still going is pending; no run, no sha or a provider error is
 * unknown; anything else is red. Only green lets a proposal open or a release commit be made.
 */
import type { CiConclusion, CiStatus, Forge } from '../../../platform/forge/index.js';
import { messageOf } from '../../../platform/message-of.js';

export type GateState = 'green' | 'red' | 'pending' | 'unknown';

export interface GateVerdict {
  state: GateState;
  conclusion: CiConclusion | 'error';
  /** The commit judged. */
  sha: string | null;
  runUrl: string | null;
  /** Why it is not green, in a sentence (empty when green). */
  detail: string;
}

export function gateState(conclusion: CiConclusion | 'error'): GateState {
  if (conclusion === 'success') return 'green';
  if (conclusion === 'pending') return 'pending';
  if (conclusion === 'unknown' || conclusion === 'error') return 'unknown';
  return 'red';
}

export function verdictOf(what: string, sha: string, status: CiStatus): GateVerdict {
  const state = gateState(status.conclusion);
  const runs = status.runUrl ? ` (${status.runUrl})` : '';
  return {
    state,
    conclusion: status.conclusion,
    sha,
    runUrl: status.runUrl,
    detail: state === 'green' ? '' : `CI of ${what} at ${sha.slice(0, 8)} is ${status.conclusion}${runs}`,
  };
}

/** The CI verdict of one commit; a provider error reads as unknown (never green), unless aborted. */
export async function commitGate(
  forge: Pick<Forge, 'commitCiStatus'>,
  what: string,
  sha: string | null,
  workflow: string,
  signal?: AbortSignal,
): Promise<GateVerdict> {
  if (!sha) {
    return {
      state: 'unknown',
      conclusion: 'unknown',
      sha: null,
      runUrl: null,
      detail: `${what} has no commit`,
    };
  }
  try {
    return verdictOf(what, sha, await forge.commitCiStatus(sha, workflow, signal));
  } catch (error) {
    signal?.throwIfAborted();
    return {
      state: 'unknown',
      conclusion: 'error',
      sha,
      runUrl: null,
      detail: `CI of ${what} at ${sha.slice(0, 8)} could not be read: ${messageOf(error)}`,
    };
  }
}
