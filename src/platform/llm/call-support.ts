/**
 * What the adapters share around a call: turning a thrown error into a ModelError (the call's own
 * timeout and cancellation first), and the probe — a models list or a one-token completion, its
 * failure as a ProbeResult.
 */
import { CallControl } from './call-control.js';
import { type CallFailure, isModelError, ModelCallError, type ModelError, modelErrorFor } from './errors.js';
import type { CallOptions, ModelClient, ProbeOptions, ProbeResult } from './types.js';

export function startCall(defaultTimeoutMs: number, options: CallOptions | undefined): CallControl {
  return new CallControl(options?.timeoutMs ?? defaultTimeoutMs, options?.signal);
}

/**
 * The ModelError for what an SDK threw. `describe` reads the SDK's own error classes; the
 * call's state wins over it (an abort the SDK reports as a connection error is still ours).
 */
export function callError(
  provider: string,
  error: unknown,
  control: CallControl,
  describe: (error: unknown) => CallFailure,
): ModelError {
  if (isModelError(error)) return error;
  const failure: CallFailure = control.timedOut
    ? { kind: 'timeout' }
    : control.cancelled
      ? { kind: 'cancelled' }
      : describe(error);
  return modelErrorFor(provider, failure, Date.now(), error);
}

/** An SDK stream that ended quietly because the call was aborted: the timeout or cancel error, if so. */
export function abortedCallError(provider: string, control: CallControl): ModelError | null {
  if (control.timedOut) return modelErrorFor(provider, { kind: 'timeout' }, Date.now());
  if (control.cancelled) return modelErrorFor(provider, { kind: 'cancelled' }, Date.now());
  return null;
}

export function unfinishedStream(provider: string): ModelCallError {
  return new ModelCallError(
    'provider_error',
    provider,
    `provider ${provider} ended the stream before the reply finished`,
  );
}

/** A message fit for a report: the SDK's body message, else its own words, never more than 500 characters. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 500);
  // The root cause says what happened (ECONNREFUSED, ENOTFOUND); the wrappers only that it failed.
  let root: Error = error;
  for (let depth = 0; depth < 5 && root.cause instanceof Error; depth++) root = root.cause;
  const code = (root as Error & { code?: unknown }).code;
  const detail = root === error ? '' : ` (${typeof code === 'string' ? code : root.message})`;
  return `${error.message}${detail}`.slice(0, 500);
}

/** A failed probe as a result; a cancelled probe still throws (the caller asked it to stop). */
export function probeFailure(mode: 'models' | 'completion', error: unknown): ProbeResult {
  if (!isModelError(error)) throw error;
  if (error.kind === 'cancelled') throw error;
  return {
    ok: false,
    mode,
    error: {
      kind: error.kind,
      message: error.message,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...('retryAfterSeconds' in error && error.retryAfterSeconds !== undefined
        ? { retry_after_seconds: error.retryAfterSeconds }
        : {}),
    },
  };
}

/**
 * One call under its own control (`body` gets its signal and timer): a throw is the ModelError for
 * it, and the timer and the caller's signal are released however it ends.
 */
export async function withCall<T>(
  provider: string,
  defaultTimeoutMs: number,
  options: CallOptions | undefined,
  describe: (error: unknown) => CallFailure,
  body: (control: CallControl) => Promise<T>,
): Promise<T> {
  const control = startCall(defaultTimeoutMs, options);
  try {
    return await body(control);
  } catch (error) {
    throw callError(provider, error, control, describe);
  } finally {
    control.settle();
  }
}

/**
 * `client`'s probe: `models` (default) runs `listModels` under the call's own control (its signal
 * and timeout) and says whether the client's model is among the ids; `completion` asks for one
 * token. A failure is the result, not a throw.
 */
export async function probeWith(
  client: Pick<ModelClient, 'provider' | 'model' | 'complete'>,
  defaultTimeoutMs: number,
  options: ProbeOptions | undefined,
  describe: (error: unknown) => CallFailure,
  listModels: (signal: AbortSignal, timeoutMs: number) => Promise<string[]>,
): Promise<ProbeResult> {
  const mode = options?.mode ?? 'models';
  try {
    if (mode === 'completion') {
      await client.complete({ messages: [{ role: 'user', content: 'ping' }], maxTokens: 1 }, options);
      return { ok: true, mode };
    }
    const ids = await withCall(client.provider, defaultTimeoutMs, options, describe, (control) =>
      listModels(control.signal, options?.timeoutMs ?? defaultTimeoutMs),
    );
    return { ok: true, mode, model_count: ids.length, model_listed: ids.includes(client.model) };
  } catch (error) {
    return probeFailure(mode, error);
  }
}
