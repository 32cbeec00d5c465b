/** PATCH /api/projects/{id} for one card: its own pending state and error; the project refetched after. */
import { useQueryClient } from '@tanstack/react-query';
import { $api, queryKey } from '../../api/client';

export function usePatchProject(onSaved?: () => void) {
  const queryClient = useQueryClient();
  return $api.useMutation('patch', '/api/projects/{id}', {
    onSuccess: (project) => {
      queryClient.setQueryData(
        ['get', '/api/projects/{id}', { params: { path: { id: project.slug } } }],
        project,
      );
      onSaved?.();
    },
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/projects') });
      queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/projects/{id}') });
    },
  });
}
