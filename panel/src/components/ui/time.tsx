/** Relative time ("3 min ago") with the absolute time in the tooltip. */
import { relativeTime } from '../../lib/format';

export function RelativeTime({ at, now = new Date() }: { at: string; now?: Date }) {
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toLocaleString()}>
      {relativeTime(date, now)}
    </time>
  );
}
