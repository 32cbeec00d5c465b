/**
 * Which cached queries each live event makes stale. A view never subscribes to refetch by hand:
 * add a row here and every view reading those routes updates live. Keys are route prefixes
 * (`queryKey('get', path)`), so all filters of a route go stale together.
 */
import { queryKey } from '../api/client';

export const INVALIDATES: Record<string, readonly (readonly unknown[])[]> = {
  MAINTENANCE_PAUSE_CHANGED: [queryKey('get', '/api/maintenance-pause')],
  TASK_CHANGED: [
    queryKey('get', '/api/tasks'),
    queryKey('get', '/api/tasks/{id}'),
    queryKey('get', '/api/tasks/{id}/events'),
    queryKey('get', '/api/tasks/{id}/findings'),
    queryKey('get', '/api/tasks/{id}/collision-map'),
    queryKey('get', '/api/work-sessions'),
    queryKey('get', '/api/kanban'),
    queryKey('get', '/api/orchestrator/dispatcher'),
    // Agents: the roster's state and current task, and the running list (spawns follow task moves).
    queryKey('get', '/api/agents'),
    queryKey('get', '/api/agents/{id}'),
    queryKey('get', '/api/orchestrator/agents'),
    // The inbox's activity feed.
    queryKey('get', '/api/tasks/activity'),
    queryKey('get', '/api/release/proposal'),
    queryKey('get', '/api/cockpit/summary'),
  ],
  NOTIFICATION_SENT: [queryKey('get', '/api/notifications')],
  NOTIFICATION_ACKED: [queryKey('get', '/api/notifications')],
  RATE_LIMIT_HIT: [queryKey('get', '/api/system/rate-limits')],
  RATE_LIMIT_LIFTED: [
    queryKey('get', '/api/system/rate-limits'),
    queryKey('get', '/api/orchestrator/agents'),
  ],
  USAGE_SNAPSHOT: [
    queryKey('get', '/api/usage/summary'),
    queryKey('get', '/api/usage/time-series'),
    queryKey('get', '/api/usage/by-agent'),
    queryKey('get', '/api/usage/by-team'),
    queryKey('get', '/api/usage/by-model'),
    queryKey('get', '/api/usage/projection'),
    queryKey('get', '/api/cockpit/summary'),
  ],
  'a2a.message': [queryKey('get', '/api/a2a/admin/conversations')],
};
