/**
 * The maintenance pause as pure rules: its scopes and modes, the stored record of one scope, the
 * effective state of a record at a given time (a pause past `expires_at` is simply over, so no
 * sweeper is needed), the expiry a request asks for (default 4 h, at most 336 h, never clamped),
 * and the words a hold, a log line or a refused run-now use to name a pause.
 */
import type { SettingValue } from '../settings/index.js';
import type { MaintenancePauseChanged } from './events.js';

export const PAUSE_SCOPES = ['dispatch', 'board_programs', 'engines'] as const;
export type PauseScope = (typeof PAUSE_SCOPES)[number];

export const PAUSE_MODES = ['drain', 'kill'] as const;
export type PauseMode = (typeof PAUSE_MODES)[number];

export const DEFAULT_PAUSE_HOURS = 4;
export const MAX_PAUSE_HOURS = 336;
export const REASON_MAX_LENGTH = 500;

const HOUR_MS = 3_600_000;

/** The settings key that stores a scope's record. */
export type PauseKey = `maintenance_pause.${PauseScope}`;
export const pauseKey = (scope: PauseScope): PauseKey => `maintenance_pause.${scope}`;

/** What the settings store holds for one scope: `{paused:false}` or the pause as it was set. */
export type PauseRecord = SettingValue<PauseKey>;
export type PausedRecord = Extract<PauseRecord, { paused: true }>;

/** A scope's state as seen now. `unreadable`: the stored state could not be read, so it counts as paused. */
export type PauseState =
  | { readonly kind: 'running' }
  | { readonly kind: 'paused'; readonly record: PausedRecord }
  | { readonly kind: 'unreadable'; readonly error: string };

/** The scope row of `GET /api/maintenance-pause` (and the `MAINTENANCE_PAUSE_CHANGED` payload). */
export type PauseRow = MaintenancePauseChanged;

/** The record's effect at `now`: a paused record whose `expires_at` has come is running again. */
export function effectivePause(record: PauseRecord, now: Date): PauseState {
  if (!record.paused) return { kind: 'running' };
  const expiresAt = Date.parse(record.expires_at);
  if (Number.isFinite(expiresAt) && now.getTime() >= expiresAt) return { kind: 'running' };
  return { kind: 'paused', record };
}

export const isPaused = (state: PauseState): boolean => state.kind !== 'running';

/** Kill only for an explicit kill pause; an unreadable state holds new work but interrupts nothing. */
export const interruptsInFlight = (state: PauseState): boolean =>
  state.kind === 'paused' && state.record.mode === 'kill';

export type ExpiryDecision =
  | { readonly ok: true; readonly expiresAt: Date }
  | { readonly ok: false; readonly message: string };

/**
 * When a pause set at `now` ends: `requested` (ISO-8601 with an offset) or now + 4 h. A time not
 * after now, more than 336 h ahead (exactly 336 h is allowed) or not a timestamp is refused.
 */
export function pauseExpiry(now: Date, requested?: string): ExpiryDecision {
  if (requested === undefined)
    return { ok: true, expiresAt: new Date(now.getTime() + DEFAULT_PAUSE_HOURS * HOUR_MS) };
  const at = Date.parse(requested);
  if (!Number.isFinite(at)) return { ok: false, message: 'is not a valid ISO-8601 timestamp with an offset' };
  if (at <= now.getTime())
    return { ok: false, message: `must be in the future (now is ${now.toISOString()})` };
  if (at - now.getTime() > MAX_PAUSE_HOURS * HOUR_MS) {
    return { ok: false, message: `must be at most ${MAX_PAUSE_HOURS} hours (14 days) from now` };
  }
  return { ok: true, expiresAt: new Date(at) };
}

/** The record a pause request stores. A blank reason is no reason. */
export function pausedRecord(input: {
  mode: PauseMode;
  pausedBy: string;
  reason: string | undefined;
  pausedAt: Date;
  expiresAt: Date;
}): PausedRecord {
  const reason = input.reason?.trim();
  return {
    paused: true,
    mode: input.mode,
    paused_by: input.pausedBy,
    reason: reason ? reason : null,
    paused_at: input.pausedAt.toISOString(),
    expires_at: input.expiresAt.toISOString(),
  };
}

/** The API row of a scope in a given state. */
export function pauseRow(scope: PauseScope, state: PauseState, degradedSince: Date | null): PauseRow {
  const read_degraded_since = degradedSince?.toISOString() ?? null;
  switch (state.kind) {
    case 'running':
      return {
        scope,
        paused: false,
        mode: null,
        paused_by: null,
        reason: null,
        paused_at: null,
        expires_at: null,
        read_degraded_since,
      };
    case 'paused':
      return {
        scope,
        paused: true,
        mode: state.record.mode,
        paused_by: state.record.paused_by,
        reason: state.record.reason,
        paused_at: new Date(state.record.paused_at).toISOString(),
        expires_at: new Date(state.record.expires_at).toISOString(),
        read_degraded_since,
      };
    case 'unreadable':
      return {
        scope,
        paused: true,
        mode: 'drain',
        paused_by: null,
        reason: `the pause state could not be read (${state.error}); treated as paused until a read succeeds`,
        paused_at: null,
        expires_at: null,
        read_degraded_since,
      };
  }
}

/** Names a pause: `maintenance pause on engines (kill) by <id> until <time> ("reason")`. */
export function describePause(row: PauseRow): string {
  if (!row.paused) return `no maintenance pause on ${row.scope}`;
  if (row.paused_by === null || row.expires_at === null) {
    return `maintenance pause on ${row.scope} (its state could not be read, so it counts as paused)`;
  }
  const why = row.reason ? ` ("${row.reason}")` : '';
  return `maintenance pause on ${row.scope} (${row.mode}) by ${row.paused_by} until ${row.expires_at}${why}`;
}
