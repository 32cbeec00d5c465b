/** Badges of an agent: its roster state (active holds a task) and its run state (blue while in flight). */
import type { RunningAgent } from './use-agents';
import { runState } from './use-agents';

const STATUS_LOOK: Record<string, string> = {
  active: 'bg-info-bg text-info border-info/30',
  idle: 'bg-surface-2 text-text border-border',
  offline: 'bg-surface-2 text-muted border-border',
};

export function AgentStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-block rounded border px-1.5 py-0.5 text-xs font-medium ${STATUS_LOOK[status] ?? STATUS_LOOK.idle}`}
    >
      {status}
    </span>
  );
}

export function RunBadge({ run }: { run: RunningAgent | undefined }) {
  const state = runState(run);
  if (state === 'not running') return <span className="text-muted">not running</span>;
  return (
    <span
      data-testid="run-state"
      data-state={state}
      title={run?.waiting?.detail ?? undefined}
      className={`inline-flex items-center gap-1.5 rounded border px-1.5 py-0.5 text-xs font-medium ${
        state === 'waiting'
          ? 'bg-warn-bg text-warn-text border-warn/30'
          : 'bg-info-bg text-info border-info/30'
      }`}
    >
      <span aria-hidden className={`size-1.5 rounded-full ${state === 'waiting' ? 'bg-warn' : 'bg-info'}`} />
      {state}
    </span>
  );
}
