/**
 * The header bell: the live unread count, and a popover with the latest notifications (mark read,
 * acknowledge) and a link to the page.
 */
import { Bell } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { ProblemNote } from '../ui/problem-note';
import { RelativeTime } from '../ui/time';
import { needsAck, useNotificationActions, useNotifications } from './use-notifications';

export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const latest = useNotifications('all', 6);
  const { read, ack } = useNotificationActions();
  const unread = latest.data?.unread_count ?? 0;
  const pending = latest.data?.pending_ack_count ?? 0;
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        aria-label={unread > 0 ? `Notifications: ${unread} unread` : 'Notifications'}
        data-testid="bell"
        className="relative inline-flex size-8 items-center justify-center rounded-md hover:bg-surface-2"
      >
        <Bell size={16} aria-hidden />
        {unread > 0 && (
          <span
            data-testid="bell-count"
            className="absolute -top-0.5 -right-0.5 rounded-full bg-accent px-1 text-[11px] font-semibold text-accent-text"
          >
            {unread}
          </span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          aria-label="Latest notifications"
          className="z-40 w-[380px] rounded-lg border border-border bg-surface shadow-xl"
        >
          <div className="flex items-center justify-between border-b border-border px-3 py-2">
            <p className="font-semibold">
              {unread} unread{pending > 0 && ` · ${pending} to acknowledge`}
            </p>
            <Link to="/notifications" className="text-accent underline" onClick={() => setOpen(false)}>
              All notifications
            </Link>
          </div>
          {latest.error && <ProblemNote error={latest.error} prefix="Could not load the notifications" />}
          <ProblemNote error={read.error ?? ack.error} />
          {latest.data?.notifications.length === 0 && (
            <p className="px-3 py-4 text-muted">Nothing yet. PMs, the board and the system write here.</p>
          )}
          <ul className="max-h-[60vh] divide-y divide-border overflow-y-auto">
            {latest.data?.notifications.map((n) => (
              <li key={n.id} className="px-3 py-2">
                <p className={`break-words ${n.read_at ? '' : 'font-semibold'}`}>{n.subject}</p>
                <p className="text-xs text-muted">
                  {n.type.replaceAll('_', ' ')} · {n.priority} · <RelativeTime at={n.sent_at} />
                </p>
                <div className="mt-1 flex gap-2">
                  {!n.read_at && (
                    <button
                      type="button"
                      className="text-xs text-accent underline"
                      onClick={() => read.mutate({ params: { path: { id: n.id } } })}
                    >
                      Mark read
                    </button>
                  )}
                  {needsAck(n) && (
                    <button
                      type="button"
                      className="text-xs text-accent underline"
                      onClick={() => ack.mutate({ params: { path: { id: n.id } } })}
                    >
                      Acknowledge
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
