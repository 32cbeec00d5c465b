/**
 * The secretary's pending directives (high-impact actions it proposed), polled every 15 s and
 * refreshed when the chat shows a new one; each with Confirm (carried out with the CEO's
 * authority) or Reject (an optional reason). A failed execution shows its error.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { $api, queryKey } from '../../api/client';
import { Button } from '../ui/button';
import { EmptyState, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { StructuredDocument } from '../ui/structured-document';

const KIND_LABEL: Record<string, string> = {
  update_charter: 'Change the charter',
  control_task: 'Control a task',
  announce: 'Announce',
  approve_pitch: 'Approve a pitch',
  relay_message: 'Relay a message',
};

export function useRefreshDirectives() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/secretary/directives') });
}

export function DirectiveQueue() {
  const refresh = useRefreshDirectives();
  const list = $api.useQuery(
    'get',
    '/api/secretary/directives',
    { params: { query: { status: 'pending' } } },
    { refetchInterval: 15_000 },
  );
  const confirm = $api.useMutation('post', '/api/secretary/directives/{id}/confirm', { onSettled: refresh });
  const reject = $api.useMutation('post', '/api/secretary/directives/{id}/reject', { onSettled: refresh });
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const items = list.data?.directives ?? [];
  const failed = confirm.data?.status === 'failed' ? confirm.data : null;

  return (
    <Section
      title="Directives waiting for you"
      description="Actions the secretary proposed; nothing happens until you confirm."
    >
      {list.error && <ProblemNote error={list.error} prefix="Could not load the directives" />}
      <ProblemNote error={confirm.error} prefix="Could not confirm" />
      <ProblemNote error={reject.error} prefix="Could not reject" />
      {failed && (
        <ProblemNote error={{ error: { message: failed.error ?? 'failed' } }} prefix="The directive failed" />
      )}
      {list.isSuccess && items.length === 0 && <EmptyState>No directive waits for your decision.</EmptyState>}
      <ul className="space-y-3">
        {items.map((d) => (
          <li
            key={d.id}
            data-testid={`directive-${d.id}`}
            className="space-y-2 rounded-md border border-border p-3"
          >
            <p className="font-semibold">{KIND_LABEL[d.kind] ?? d.kind}</p>
            {d.rationale && <p>{d.rationale}</p>}
            <div className="rounded bg-surface-2 p-2">
              <StructuredDocument document={d.payload as Record<string, unknown>} level={4} />
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Button
                variant="primary"
                disabled={confirm.isPending}
                onClick={() => confirm.mutate({ params: { path: { id: d.id } } })}
              >
                Confirm
              </Button>
              <label htmlFor={`reason-${d.id}`} className="sr-only">
                Reason to reject
              </label>
              <input
                id={`reason-${d.id}`}
                className="h-8 min-w-0 flex-1 rounded-md border border-border bg-surface px-2"
                placeholder="Reason (optional)"
                value={reasons[d.id] ?? ''}
                onChange={(e) => setReasons((r) => ({ ...r, [d.id]: e.target.value }))}
              />
              <Button
                disabled={reject.isPending}
                onClick={() =>
                  reject.mutate({ params: { path: { id: d.id } }, body: { reason: reasons[d.id] ?? '' } })
                }
              >
                Reject
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}
