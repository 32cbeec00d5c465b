/**
 * Inbox, the home page: everything waiting for the CEO, newest first — tasks awaiting approval,
 * notifications to acknowledge, stalled tasks — then key figures and the company at a glance. An empty company is welcomed
 * with how to start; a live activity feed (task moves, engine originations, pauses) sits above the figures. The release proposal card has its slot first (components/release).
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { $api } from '../api/client';
import { AckBody } from '../components/inbox/ack-body';
import { ActivityFeed } from '../components/inbox/activity-feed';
import { ApprovalCard } from '../components/inbox/approval-card';
import { CompanyGlance } from '../components/inbox/company-glance';
import { KeyFigures } from '../components/inbox/key-figures';
import { type Notification, type StalledTask, useInbox } from '../components/inbox/use-inbox';
import { Welcome } from '../components/inbox/welcome';
import { ReleaseProposalSlot } from '../components/release/release-proposal-slot';
import { Button } from '../components/ui/button';
import { EmptyState, Loading, Page, Section } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { ShortId } from '../components/ui/short-id';
import { RelativeTime } from '../components/ui/time';
import { usePollInterval } from '../live/live';

export default function InboxPage() {
  const inbox = useInbox();
  const refetchInterval = usePollInterval(30_000);
  const board = $api.useQuery(
    'get',
    '/api/kanban',
    { params: { query: { limit: 1, include_terminal: false } } },
    { refetchInterval },
  );
  const projects = $api.useQuery('get', '/api/projects');
  const firstRun =
    board.data?.total === 0 && projects.data !== undefined && projectCount(projects.data) === 0;
  const loading = inbox.approvals.isPending || inbox.notifications.isPending || inbox.dispatcher.isPending;

  return (
    <Page title={inbox.count > 0 ? `Inbox — ${inbox.count} waiting for you` : 'Inbox'}>
      <ReleaseProposalSlot />
      {firstRun && <Welcome />}

      <Section title={`Awaiting your approval (${inbox.awaiting.length})`}>
        {inbox.approvals.error && (
          <ProblemNote error={inbox.approvals.error} prefix="Could not load the approvals" />
        )}
        {inbox.approvals.isPending && <Loading what="approvals" />}
        {inbox.approvals.isSuccess && inbox.awaiting.length === 0 && (
          <EmptyState>
            Nothing to approve. Finished work lands here when the main PM escalates a root task to you.
          </EmptyState>
        )}
        <div className="grid gap-3 xl:grid-cols-2">
          {inbox.awaiting.map((task) => (
            <ApprovalCard key={task.id} task={task} />
          ))}
        </div>
      </Section>

      <div className="grid gap-6 xl:grid-cols-2">
        <Acknowledgements
          items={inbox.acks}
          error={inbox.notifications.error}
          ready={inbox.notifications.isSuccess}
        />
        <Stalled items={inbox.stalled} error={inbox.dispatcher.error} ready={inbox.dispatcher.isSuccess} />
      </div>

      <ActivityFeed />

      {board.error && <ProblemNote error={board.error} prefix="Could not load the key figures" />}
      {board.data && <KeyFigures board={board.data} />}
      {!firstRun && <CompanyGlance />}
      {loading && <span className="sr-only">Loading</span>}
    </Page>
  );
}

function projectCount(data: unknown): number {
  if (Array.isArray(data)) return data.length;
  if (typeof data === 'object' && data !== null && 'projects' in data && Array.isArray(data.projects))
    return data.projects.length;
  return 0;
}

function Acknowledgements({
  items,
  error,
  ready,
}: {
  items: Notification[];
  error: unknown;
  ready: boolean;
}) {
  const queryClient = useQueryClient();
  const ack = $api.useMutation('post', '/api/notifications/{id}/ack', {
    onSettled: () => queryClient.invalidateQueries(),
  });
  return (
    <Section
      title={`Acknowledgements (${items.length})`}
      description="Formal signals that need your ack: from a PM or the board, the end of an experiment and route advice, with their numbers."
    >
      {error ? <ProblemNote error={error} prefix="Could not load the notifications" /> : null}
      {ack.error ? <ProblemNote error={ack.error} prefix="Could not acknowledge" /> : null}
      {ready && items.length === 0 && <EmptyState>Nothing to acknowledge.</EmptyState>}
      <ul className="divide-y divide-border">
        {items.map((n) => (
          <li key={n.id} className="flex items-start justify-between gap-3 py-2">
            <div className="min-w-0">
              <p className="font-medium break-words">{n.subject}</p>
              {n.body && <AckBody body={n.body} />}
              <p className="text-muted">
                {n.type.replaceAll('_', ' ')} · {n.priority} · from {n.sender_role} ·{' '}
                <RelativeTime at={n.sent_at} />
                {n.related_task_id && (
                  <>
                    {' '}
                    ·{' '}
                    <Link className="text-accent underline" to={`/tasks/${n.related_task_id}`}>
                      task <ShortId id={n.related_task_id} />
                    </Link>
                  </>
                )}
              </p>
            </div>
            <Button
              size="sm"
              disabled={ack.isPending}
              onClick={() => ack.mutate({ params: { path: { id: n.id } } })}
            >
              Acknowledge
            </Button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Stalled({ items, error, ready }: { items: StalledTask[]; error: unknown; ready: boolean }) {
  return (
    <Section
      title={`Stalled (${items.length})`}
      description="Tasks the dispatcher gave up on after spawns that made no progress."
    >
      {error ? <ProblemNote error={error} prefix="Could not load the dispatcher state" /> : null}
      {ready && items.length === 0 && <EmptyState>No stalled tasks.</EmptyState>}
      <ul className="divide-y divide-border">
        {items.map((s) => (
          <li key={s.task_id} className="py-2">
            <Link className="font-medium text-accent underline" to={`/tasks/${s.task_id}`}>
              Task <ShortId id={s.task_id} />
            </Link>{' '}
            <span className="text-muted">
              · stalled <RelativeTime at={s.stalled_at} />
            </span>
            {s.reason && <p className="text-muted break-words">{s.reason}</p>}
          </li>
        ))}
      </ul>
    </Section>
  );
}
