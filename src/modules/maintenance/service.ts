/**
 * The maintenance pause service: reads and writes each scope's record in the settings store,
 * decides its effective state with the clock (expiry needs no sweeper), fails closed when the
 * stored state cannot be read (the scope counts as paused and its row shows `read_degraded_since`),
 * publishes `MAINTENANCE_PAUSE_CHANGED` after every pause and resume, and answers the scheduler's
 * question "may this loop run now?" as a Hold.
 */
import type { EventBus } from '../../platform/bus/index.js';
import type { Clock } from '../../platform/clock.js';
import { unprocessable } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { Hold } from '../../platform/scheduler/types.js';
import { safeFailureMessage } from '../../platform/store-errors.js';
import {
  describePause,
  effectivePause,
  interruptsInFlight,
  isPaused,
  PAUSE_SCOPES,
  type PauseKey,
  type PauseMode,
  type PauseRecord,
  type PauseRow,
  type PauseScope,
  type PauseState,
  pausedRecord,
  pauseExpiry,
  pauseKey,
  pauseRow,
} from './pause-rules.js';

/** Where the records live: the settings service (`maintenance_pause.<scope>`), or anything shaped like it. */
export interface PauseRecordStore {
  get(key: PauseKey): Promise<PauseRecord>;
  setInternal(key: PauseKey, value: PauseRecord, updatedBy: string): Promise<unknown>;
}

export interface PauseRequest {
  mode: PauseMode;
  reason?: string | undefined;
  /** ISO-8601 with an offset; default now + 4 h. */
  expires_at?: string | undefined;
}

export class MaintenancePauseService {
  /** Per scope: the first failed read since the last good one (this process only). */
  private readonly degradedSince = new Map<PauseScope, Date>();

  constructor(
    private readonly store: PauseRecordStore,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    /** Where failed reads and publications are logged (the platform's logger). */
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /** The scope's state now. Never throws: a failed read is `unreadable`, which counts as paused. */
  async state(scope: PauseScope): Promise<PauseState> {
    let record: PauseRecord;
    try {
      record = await this.store.get(pauseKey(scope));
    } catch (error) {
      // Shown in the pause rows and holds: the store's name at most, never SQL or a driver message.
      const message = safeFailureMessage(error);
      if (!this.degradedSince.has(scope)) this.degradedSince.set(scope, this.clock.now());
      this.log.warn(
        { scope, err: error },
        'maintenance pause state unreadable; treating the scope as paused',
      );
      return { kind: 'unreadable', error: message };
    }
    this.degradedSince.delete(scope);
    return effectivePause(record, this.clock.now());
  }

  async row(scope: PauseScope): Promise<PauseRow> {
    const state = await this.state(scope);
    return pauseRow(scope, state, this.degradedSince.get(scope) ?? null);
  }

  /** Every scope, always all three, in a fixed order. */
  async list(): Promise<PauseRow[]> {
    return Promise.all(PAUSE_SCOPES.map((scope) => this.row(scope)));
  }

  /** Pauses (or re-pauses) a scope; 422 for an expiry in the past, beyond 336 h, or not a timestamp. */
  async pause(scope: PauseScope, request: PauseRequest, pausedBy: string): Promise<PauseRow> {
    const now = this.clock.now();
    const expiry = pauseExpiry(now, request.expires_at);
    if (!expiry.ok) {
      throw unprocessable(`expires_at ${expiry.message}`, [
        { field: 'body.expires_at', message: expiry.message },
      ]);
    }
    const record = pausedRecord({
      mode: request.mode,
      pausedBy,
      reason: request.reason,
      pausedAt: now,
      expiresAt: expiry.expiresAt,
    });
    await this.store.setInternal(pauseKey(scope), record, pausedBy);
    return this.changed(scope);
  }

  /** Resumes a scope at once; resuming a running scope is fine (idempotent). */
  async resume(scope: PauseScope, resumedBy: string): Promise<PauseRow> {
    await this.store.setInternal(pauseKey(scope), { paused: false }, resumedBy);
    return this.changed(scope);
  }

  /**
   * Null when none of `scopes` is paused, else why the work must wait; `interrupt` when any of them
   * is a kill pause (in-flight work is aborted, not only new work held).
   */
  async holdFor(scopes: readonly PauseScope[]): Promise<Hold | null> {
    const states = await Promise.all(
      scopes.map(async (scope) => ({ scope, state: await this.state(scope) })),
    );
    const paused = states.filter(({ state }) => isPaused(state));
    if (paused.length === 0) return null;
    return {
      reason: paused
        .map(({ scope, state }) =>
          describePause(pauseRow(scope, state, this.degradedSince.get(scope) ?? null)),
        )
        .join('; '),
      interrupt: paused.some(({ state }) => interruptsInFlight(state)),
    };
  }

  /** The row after a write, published to every replica (and through the bridge to /ws/system). */
  private async changed(scope: PauseScope): Promise<PauseRow> {
    const row = await this.row(scope);
    try {
      await this.bus.publish('MAINTENANCE_PAUSE_CHANGED', row);
    } catch (error) {
      // The state is stored either way; the scheduler's hold check still sees it at the next pass.
      this.log.warn({ scope, err: error }, 'MAINTENANCE_PAUSE_CHANGED could not be published');
    }
    return row;
  }
}
