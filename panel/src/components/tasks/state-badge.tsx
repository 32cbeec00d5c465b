/** One badge per task state, the same colour and label everywhere (kanban, lists, detail, inbox). */
const LOOK: Record<string, string> = {
  completed: 'bg-ok-bg text-ok border-ok/30',
  cancelled: 'bg-surface-2 text-muted border-border',
  blocked: 'bg-danger-bg text-danger-text border-danger/30',
  paused: 'bg-surface-2 text-muted border-border',
  needs_revision: 'bg-warn-bg text-warn-text border-warn/30',
  awaiting_ceo_approval: 'bg-accent text-accent-text border-transparent',
};

export const stateLabel = (status: string) => status.replaceAll('_', ' ');

export function StateBadge({ status }: { status: string }) {
  const look =
    LOOK[status] ??
    (status.startsWith('awaiting')
      ? 'bg-info-bg text-info border-info/30'
      : 'bg-surface-2 text-text border-border');
  return (
    <span
      className={`inline-block rounded border px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${look}`}
    >
      {stateLabel(status)}
    </span>
  );
}
