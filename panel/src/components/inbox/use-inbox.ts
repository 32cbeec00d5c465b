/**
 * Everything waiting for the CEO, from the routes that exist today: tasks awaiting CEO approval
 * (roots: approve & merge; escalated subtasks: approve), notifications that need an
 * acknowledgement, and tasks the dispatcher's respawn breaker gave up on (stalled). The navigation
 * badge and the inbox page read the same queries. Live through TASK_CHANGED / NOTIFICATION_* (see
 * live/invalidation.ts); polled only while the socket is down.
 */
import { $api } from '../../api/client';
import type { paths } from '../../api/schema';
import { usePollInterval } from '../../live/live';

export type Task = paths['/api/tasks/{id}']['get']['responses'][200]['content']['application/json'];
export type Notification =
  paths['/api/notifications']['get']['responses'][200]['content']['application/json']['notifications'][number];
export type StalledTask =
  paths['/api/orchestrator/dispatcher']['get']['responses'][200]['content']['application/json']['stalled_tasks'][number];

export function useInbox() {
  const refetchInterval = usePollInterval(30_000);
  const approvals = $api.useQuery(
    'get',
    '/api/tasks',
    { params: { query: { status: ['awaiting_ceo_approval'], limit: 200 } } },
    { refetchInterval },
  );
  const notifications = $api.useQuery(
    'get',
    '/api/notifications',
    { params: { query: { pending_ack_only: true } } },
    { refetchInterval },
  );
  const dispatcher = $api.useQuery('get', '/api/orchestrator/dispatcher', undefined, { refetchInterval });
  // 404 = no release proposal held; the card itself lives in components/release.
  const release = $api.useQuery('get', '/api/release/proposal', undefined, { refetchInterval });

  // The held release proposal is a task too; it gets its own card (components/release), not a row here.
  const awaiting = (approvals.data?.tasks ?? []).filter((task) => !task.held);
  const acks = (notifications.data?.notifications ?? []).filter((n) => n.ack_required && !n.acked_at);
  const stalled = dispatcher.data?.stalled_tasks ?? [];
  return {
    approvals,
    notifications,
    dispatcher,
    awaiting,
    acks,
    stalled,
    count: awaiting.length + acks.length + stalled.length + (release.isSuccess ? 1 : 0),
  };
}
