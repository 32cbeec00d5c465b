/** How the release proposal's executor state and report read to the CEO. Pure. */

/** The failure statuses as one short reason. */
const FAILURES: Record<string, string> = {
  failed_promotion: 'promoting the ladder into prod hit a merge conflict',
  failed_head_ci: 'the head rung’s CI is not green (nothing was committed)',
  failed_release_ci: 'the release commit’s CI failed or never turned green',
  failed_error: 'an unexpected error stopped the executor',
  failed_interrupted: 'the approve was interrupted (the process stopped or lost the release lock)',
};

export function failureReason(status: string | null | undefined): string | null {
  if (!status?.startsWith('failed_')) return null;
  return FAILURES[status] ?? status.replaceAll('_', ' ');
}

export interface ChangeCount {
  kind: string;
  count: number;
}

/** "12 commits · 3 feat · 1 fix · 1 security": the kinds with commits, feat and security first. */
export function changeSummary(commitCount: number, changes: readonly ChangeCount[]): string {
  const order = ['feat', 'security', 'fix', 'perf'];
  const kinds = changes
    .filter((change) => change.count > 0)
    .sort((a, b) => rank(a.kind, order) - rank(b.kind, order));
  return [
    `${commitCount} commit${commitCount === 1 ? '' : 's'}`,
    ...kinds.map((c) => `${c.count} ${c.kind}`),
  ].join(' · ');
}

const rank = (kind: string, order: string[]) => {
  const index = order.indexOf(kind);
  return index === -1 ? order.length : index;
};
