/**
 * A rate with its 95 % Wilson interval: a thin bar from 0 to 100 % with the interval drawn as a band
 * and the rate as a mark on it, then the words ("82 % [70–90]"). The words are what a screen reader
 * reads; the bar is decoration.
 */
import { formatRate, type Interval, intervalBar } from './format';

export function IntervalBar({ interval, testId }: { interval: Interval; testId?: string }) {
  const bar = intervalBar(interval);
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap" data-testid={testId}>
      <span
        aria-hidden
        data-testid="interval-bar"
        className="relative block h-2 w-16 shrink-0 rounded-full bg-surface-2 ring-1 ring-border ring-inset"
      >
        <span
          className="absolute inset-y-0 rounded-full bg-accent/35"
          style={{ left: `${bar.left}%`, width: `${bar.width}%` }}
        />
        <span
          className="absolute -top-0.5 -bottom-0.5 w-0.5 -translate-x-1/2 rounded-full bg-accent"
          style={{ left: `${bar.mark}%` }}
        />
      </span>
      <span title={`${interval.n} observations; the 95 % interval in brackets`}>{formatRate(interval)}</span>
    </span>
  );
}
