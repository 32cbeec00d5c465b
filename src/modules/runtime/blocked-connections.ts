/**
 * What a run's network fence refused, as the run's record keeps it: each distinct destination and
 * reason once in the transcript ("blocked: 127.0.0.1:5432 — not on the allowlist") and in the run's
 * list with how often, every refusal in the count. A run that hammers one closed door writes one
 * line, not thousands; past MAX_DISTINCT destinations it is counted only.
 */
import type { EgressRefusal } from '../../platform/process/index.js';

export interface BlockedConnection {
  host: string;
  port: number;
  reason: string;
  count: number;
}

export const MAX_DISTINCT_BLOCKED = 50;

/** `host:port` as a person writes it (an IPv6 host in brackets). */
export const destinationOf = (host: string, port: number) =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

export class BlockedConnections {
  private readonly byKey = new Map<string, BlockedConnection>();
  private count = 0;

  /** `note` writes a line to the run's transcript. */
  constructor(private readonly note: (text: string) => void) {}

  add(refusal: EgressRefusal): void {
    this.count += 1;
    const destination = destinationOf(refusal.host, refusal.port);
    const key = `${destination} ${refusal.reason}`;
    const seen = this.byKey.get(key);
    if (seen) {
      seen.count += 1;
      return;
    }
    if (this.byKey.size >= MAX_DISTINCT_BLOCKED) return;
    this.byKey.set(key, { host: refusal.host, port: refusal.port, reason: refusal.reason, count: 1 });
    this.note(`blocked: ${destination} — ${refusal.reason}`);
  }

  /** The distinct refusals, in the order they first happened. */
  list(): BlockedConnection[] {
    return [...this.byKey.values()].map((blocked) => ({ ...blocked }));
  }

  get total(): number {
    return this.count;
  }
}
