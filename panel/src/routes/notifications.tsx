/**
 * Notifications (`/notifications`): the CEO's notifications, newest first, filtered (`?show=unread`
 * or `?show=ack` for those waiting for an acknowledgement); mark read (one, or all shown) and
 * acknowledge where required. Live from the CEO's own notifications socket.
 */
import { Link, useSearchParams } from 'react-router';
import {
  type NotificationFilter,
  needsAck,
  useNotificationActions,
  useNotifications,
} from '../components/notifications/use-notifications';
import { Button } from '../components/ui/button';
import { ChoiceButtons } from '../components/ui/choice-buttons';
import { EmptyState, Loading, Page } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { ShortId } from '../components/ui/short-id';
import { TableScroll } from '../components/ui/table-scroll';
import { RelativeTime } from '../components/ui/time';

const FILTERS: { value: NotificationFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'ack', label: 'Needs ack' },
];

const EMPTY: Record<NotificationFilter, string> = {
  all: 'No notifications yet. PMs, the board and the system notify you of escalations, approvals and alerts here.',
  unread: 'Everything is read.',
  ack: 'Nothing waits for your acknowledgement.',
};

export default function NotificationsPage() {
  const [search, setSearch] = useSearchParams();
  const show = (FILTERS.find((f) => f.value === search.get('show'))?.value ?? 'all') as NotificationFilter;
  const list = useNotifications(show);
  const { read, ack } = useNotificationActions();
  const items = list.data?.notifications ?? [];
  const unreadShown = items.filter((n) => !n.read_at);
  const counts: Record<NotificationFilter, number | undefined> = {
    all: undefined,
    unread: list.data?.unread_count,
    ack: list.data?.pending_ack_count,
  };

  return (
    <Page
      title="Notifications"
      actions={
        unreadShown.length > 0 && (
          <Button
            disabled={read.isPending}
            onClick={() => {
              for (const n of unreadShown) read.mutate({ params: { path: { id: n.id } } });
            }}
          >
            Mark {unreadShown.length} read
          </Button>
        )
      }
    >
      <ChoiceButtons
        legend="Show"
        options={FILTERS.map((f) => ({
          value: f.value,
          label: counts[f.value] === undefined ? f.label : `${f.label} (${counts[f.value]})`,
        }))}
        value={show}
        onChange={(value) => setSearch(value === 'all' ? {} : { show: value }, { replace: true })}
      />
      {list.error && <ProblemNote error={list.error} prefix="Could not load the notifications" />}
      <ProblemNote error={read.error} prefix="Could not mark it read" />
      <ProblemNote error={ack.error} prefix="Could not acknowledge" />
      {list.isPending && <Loading what="notifications" />}
      {list.isSuccess && items.length === 0 && <EmptyState>{EMPTY[show]}</EmptyState>}
      {items.length > 0 && (
        <TableScroll label="Notifications">
          <table className="w-full text-left" data-testid="notifications">
            <thead className="border-b border-border text-xs text-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Notification
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Type
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  From
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Sent
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {items.map((n) => (
                <tr key={n.id} data-testid={`notification-${n.id}`} className="align-top">
                  <td className="px-3 py-2">
                    <p className={`break-words ${n.read_at ? '' : 'font-semibold'}`}>
                      {!n.read_at && <span className="sr-only">Unread: </span>}
                      {n.subject}
                    </p>
                    {n.body && <p className="mt-0.5 whitespace-pre-wrap break-words text-muted">{n.body}</p>}
                    {n.related_task_id && (
                      <Link to={`/tasks/${n.related_task_id}`} className="text-accent underline">
                        task <ShortId id={n.related_task_id} />
                      </Link>
                    )}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {n.type.replaceAll('_', ' ')}
                    <span className="block text-xs text-muted">{n.priority}</span>
                  </td>
                  <td className="px-3 py-2">{n.sender_role.replaceAll('_', ' ')}</td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    <RelativeTime at={n.sent_at} />
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex justify-end gap-2">
                      {!n.read_at && (
                        <Button size="sm" onClick={() => read.mutate({ params: { path: { id: n.id } } })}>
                          Mark read
                        </Button>
                      )}
                      {needsAck(n) ? (
                        <Button
                          size="sm"
                          variant="primary"
                          disabled={ack.isPending}
                          onClick={() => ack.mutate({ params: { path: { id: n.id } } })}
                        >
                          Acknowledge
                        </Button>
                      ) : (
                        n.acked_at && (
                          <span className="text-xs text-muted">
                            acknowledged <RelativeTime at={n.acked_at} />
                          </span>
                        )
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Page>
  );
}
