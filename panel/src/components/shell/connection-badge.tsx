/** The header's one connection indicator: Live (green), Reconnecting (amber), Polling (grey). */
import { useConnectionState } from '../../live/live';

const LOOK = {
  live: { label: 'Live', dot: 'bg-ok', help: 'Updates arrive live over the system stream.' },
  reconnecting: { label: 'Reconnecting', dot: 'bg-warn', help: 'The live stream dropped; reconnecting.' },
  polling: {
    label: 'Polling',
    dot: 'bg-muted',
    help: 'The live stream is down: views refresh every 30 seconds while it reconnects.',
  },
} as const;

export function ConnectionBadge() {
  const state = useConnectionState();
  const look = LOOK[state];
  return (
    <span
      role="status"
      data-testid="connection-state"
      data-state={state}
      title={look.help}
      className="inline-flex items-center gap-1.5 rounded-full border border-border px-2 py-0.5 text-xs"
    >
      <span aria-hidden className={`size-2 rounded-full ${look.dot}`} />
      {look.label}
    </span>
  );
}
