/**
 * Budget months: a project's monthly budget covers one calendar month in UTC. Pure functions: the
 * window a moment falls in, and its `YYYY-MM` key (how a monthly breach is named once).
 */

export interface MonthWindow {
  /** First instant of the month (inclusive). */
  start: Date;
  /** First instant of the next month (exclusive). */
  end: Date;
}

export function monthWindow(at: Date): MonthWindow {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

export const monthKey = (at: Date): string =>
  `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
