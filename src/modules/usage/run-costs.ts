/**
 * Books an agent CLI's usage lines run by run, in the order they were printed. A line without a
 * cost is priced from the table; a line that carries the whole run's cost as the CLI itself
 * reported it (Claude Code's closing `result` line) books what that cost exceeds what the run's
 * earlier lines were booked at. So a run costs what its CLI said, whether or not the price table
 * knows its model, and still shows its spend line by line while it runs.
 */
import type { UsageInput } from './service.js';

/** Runs whose closing line never came (killed, crashed) are forgotten past this many. */
const MAX_OPEN_RUNS = 1000;

interface OpenRun {
  /** What the run's lines were booked at so far, in USD. */
  spent: number;
  /** The run's last booking (the next one waits for it). */
  last: Promise<void>;
}

export class RunCostBook {
  private readonly runs = new Map<string, OpenRun>();

  /** `record` books one line and answers what it cost; it never throws. */
  constructor(private readonly record: (input: UsageInput) => Promise<number>) {}

  /** Books one line of `runId`; `runCost` is the run's whole cost so far as its CLI reported it. */
  book(runId: string, input: Omit<UsageInput, 'cost_usd'>, runCost: number | null): Promise<void> {
    const run = this.open(runId);
    run.last = run.last.then(async () => {
      const cost = runCost === null ? null : Math.max(0, runCost - run.spent);
      run.spent += await this.record({ ...input, cost_usd: cost });
      // The CLI's total closes the run.
      if (runCost !== null) this.runs.delete(runId);
    });
    return run.last;
  }

  private open(runId: string): OpenRun {
    const known = this.runs.get(runId);
    if (known) return known;
    const run: OpenRun = { spent: 0, last: Promise.resolve() };
    this.runs.set(runId, run);
    if (this.runs.size > MAX_OPEN_RUNS) this.runs.delete(this.runs.keys().next().value!);
    return run;
  }
}
