/**
 * The CEO's notifications and the actions on them. Live: NOTIFICATION_SENT / NOTIFICATION_ACKED on
 * the CEO's own `/ws/notifications` socket invalidate every `/api/notifications` query
 * (live/invalidation.ts); polled only while the system socket is down.
 */
import { useQueryClient } from '@tanstack/react-query';
import { $api, queryKey } from '../../api/client';
import type { paths } from '../../api/schema';
import { usePollInterval } from '../../live/live';

export type Notification =
  paths['/api/notifications']['get']['responses'][200]['content']['application/json']['notifications'][number];
export type NotificationFilter = 'all' | 'unread' | 'ack';

export function useNotifications(filter: NotificationFilter, limit = 100) {
  const query =
    filter === 'unread'
      ? { unread_only: true, limit }
      : filter === 'ack'
        ? { pending_ack_only: true, limit }
        : { limit };
  return $api.useQuery(
    'get',
    '/api/notifications',
    { params: { query } },
    { refetchInterval: usePollInterval(30_000) },
  );
}

export function useNotificationActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/notifications') });
  const read = $api.useMutation('post', '/api/notifications/{id}/read', { onSettled: refresh });
  const ack = $api.useMutation('post', '/api/notifications/{id}/ack', { onSettled: refresh });
  return { read, ack };
}

/** Still waiting for the CEO's acknowledgement. */
export const needsAck = (n: Notification) => n.ack_required && !n.acked_at && !n.resolved_at;
