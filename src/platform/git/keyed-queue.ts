/**
 * Runs async jobs one at a time per key, in arrival order (jobs under different keys run
 * concurrently). Git work on one directory — a clone, a mirror, the local forge's merge clone — is
 * serialised through it within the process. A failing job does not stop the ones queued after it.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(job, job);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Keys with a job queued or running. */
  get busyKeys(): string[] {
    return [...this.tails.keys()];
  }
}
