/** The task of the detail page, live (TASK_CHANGED refetches it; polls while the socket is down). */
import { $api } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { usePollInterval } from '../../../live/live';

export type Task = paths['/api/tasks/{id}']['get']['responses'][200]['content']['application/json'];

export function useTask(id: string) {
  const refetchInterval = usePollInterval(10_000);
  return $api.useQuery('get', '/api/tasks/{id}', { params: { path: { id } } }, { refetchInterval });
}
