/** The answer of a provider's Test, in one sentence a CEO can act on. */
export interface Probe {
  ok: boolean;
  mode: 'models' | 'completion';
  model_count?: number;
  model_listed?: boolean;
  error?: { kind: string; message: string; status?: number; retry_after_seconds?: number };
}

/** ok: it answers; held: the provider holds calls back for now (amber); failed: it does not work. */
export type ProbeTone = 'ok' | 'held' | 'failed';

export function probeText(probe: Probe, defaultModel: string): { tone: ProbeTone; text: string } {
  if (probe.ok) {
    const count = probe.model_count === undefined ? 'it answers' : `${probe.model_count} models listed`;
    const listed =
      probe.model_listed === undefined
        ? ''
        : probe.model_listed
          ? `, ${defaultModel} among them`
          : `, but not ${defaultModel} (check the default model's name)`;
    return { tone: 'ok', text: `Connected: ${count}${listed}.` };
  }
  const error = probe.error ?? { kind: 'error', message: 'no answer' };
  const status = error.status ? ` (HTTP ${error.status})` : '';
  const retry =
    error.retry_after_seconds === undefined ? '' : ` Retry after ${Math.ceil(error.retry_after_seconds)} s.`;
  const what: Record<string, string> = {
    authentication: 'The key was refused',
    rate_limited: 'Rate limited',
    overloaded: 'The provider is overloaded',
    unreachable: 'The host cannot be reached',
    timeout: 'No answer in time',
    bad_request: 'The provider refused the request',
    provider_error: 'The provider failed',
  };
  return {
    tone: error.kind === 'rate_limited' || error.kind === 'overloaded' ? 'held' : 'failed',
    text: `${what[error.kind] ?? `Failed (${error.kind})`}${status}: ${error.message}.${retry}`,
  };
}
