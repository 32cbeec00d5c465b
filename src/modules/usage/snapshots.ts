/**
 * USAGE_SNAPSHOT publishing: the 24h summary (plus `at`) on the bus — at most one a second after
 * usage is recorded (records within the second are coalesced into the next snapshot), and on the
 * slow `usage.snapshot` loop so an idle socket still hears the figures age out of the window.
 */
import type { EventBus } from '../../platform/bus/index.js';
import type { Clock } from '../../platform/clock.js';
import type { UsageAnalytics } from './analytics.js';

/** Least time between two snapshots published after records. */
export const SNAPSHOT_MIN_GAP_MS = 1_000;
/** The slow loop's interval. */
export const SNAPSHOT_INTERVAL_MS = 60_000;
export const SNAPSHOT_LOOP = 'usage.snapshot';

export interface SnapshotLog {
  warn(details: object, message: string): void;
}

export class UsageSnapshots {
  private timer: NodeJS.Timeout | null = null;
  private lastSentAt = 0;
  private closed = false;

  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly analytics: UsageAnalytics,
    private readonly log?: SnapshotLog,
  ) {}

  /** Usage was recorded: a snapshot follows within a second (one for every record in between). */
  recorded(): void {
    if (this.timer || this.closed) return;
    const wait = Math.max(0, this.lastSentAt + SNAPSHOT_MIN_GAP_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.publish().catch((error) => this.log?.warn({ err: error }, 'usage: a snapshot failed'));
    }, wait);
    this.timer.unref();
  }

  /** Publishes the 24h summary now. */
  async publish(): Promise<void> {
    this.lastSentAt = Date.now();
    const summary = await this.analytics.summary('24h');
    if (this.closed) return;
    await this.bus.publish('USAGE_SNAPSHOT', { ...summary, at: this.clock.now().toISOString() });
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
