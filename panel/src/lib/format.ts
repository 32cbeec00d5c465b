/** Pure formatting for the panel: countdowns, relative times, durations. */

/**
 * A countdown to a deadline, ticking to the second: `2d 03h 12m 04s`, `3h 12m 04s`, `12m 04s`,
 * `42s`; `0s` once it has passed (the caller refetches rather than assuming the thing ended).
 */
export function formatCountdown(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${pad(hours)}h ${pad(minutes)}m ${pad(seconds)}s`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m ${pad(seconds)}s`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}

/** "just now", "3 min ago", "5 h ago", "2 d ago" (and "in 3 min" for the future). */
export function relativeTime(at: Date, now: Date): string {
  const diff = now.getTime() - at.getTime();
  const future = diff < 0;
  const seconds = Math.abs(diff) / 1000;
  let text: string;
  if (seconds < 45) return 'just now';
  if (seconds < 3_600) text = `${Math.round(seconds / 60)} min`;
  else if (seconds < 86_400) text = `${Math.round(seconds / 3_600)} h`;
  else text = `${Math.round(seconds / 86_400)} d`;
  return future ? `in ${text}` : `${text} ago`;
}

/** A duration choice for the pause dialog, in hours, as a label: "30 min", "4 h", "14 days". */
export function durationLabel(hours: number): string {
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  if (hours < 24 || hours % 24 !== 0) return `${hours} h`;
  const days = hours / 24;
  return days === 1 ? '1 day' : `${days} days`;
}

const CEO_ID = '00000000-0000-0000-0000-000000000001';

/** Who did something, from an identity id: the CEO by name, anyone else by id. */
export function actorName(id: string | null | undefined): string {
  if (!id) return 'unknown';
  return id === CEO_ID ? 'ceo' : id;
}

/** Dollars for the usage views: `$0`, `$0.0042` (under a cent keeps 4 decimals), `$0.20`, `$12.50`, `$1,234`. */
export function formatUsd(value: number): string {
  if (value === 0) return '$0';
  if (Math.abs(value) < 0.01) return `$${value.toFixed(4)}`;
  if (Math.abs(value) < 1000) return `$${value.toFixed(2)}`;
  return `$${Math.round(value).toLocaleString('en-US')}`;
}

/** Token counts: `950`, `1.23k`, `12.3k`, `190k`, `4.56M` (no trailing zeros). */
export function formatTokens(value: number): string {
  const short = (n: number, digits: number) => String(Number(n.toFixed(digits)));
  if (Math.abs(value) < 1000) return String(value);
  if (Math.abs(value) < 1_000_000) return `${short(value / 1000, Math.abs(value) < 10_000 ? 2 : 1)}k`;
  return `${short(value / 1_000_000, 2)}M`;
}
