/**
 * One model call's abort signal: it fires when the caller's signal aborts (cancelled) or when
 * the provider stays silent longer than the timeout (timed out). `touch()` restarts the timer on
 * every sign of life of a stream; `settle()` releases the timer and the caller's signal.
 */
export class CallControl {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private state: 'running' | 'timed_out' | 'cancelled' | 'settled' = 'running';
  private readonly onCallerAbort = () => this.stop('cancelled');

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    if (callerSignal?.aborted) this.stop('cancelled');
    else {
      callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
      this.touch();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get timedOut(): boolean {
    return this.state === 'timed_out';
  }

  get cancelled(): boolean {
    return this.state === 'cancelled';
  }

  touch(): void {
    if (this.state !== 'running') return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop('timed_out'), this.timeoutMs);
    this.timer.unref?.();
  }

  /** Ends the call: aborts the request if still open (closing the connection) and frees the timer. */
  settle(): void {
    if (this.state === 'running') this.state = 'settled';
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  private stop(reason: 'timed_out' | 'cancelled'): void {
    if (this.state !== 'running') return;
    this.state = reason;
    clearTimeout(this.timer);
    this.controller.abort(reason);
  }
}
