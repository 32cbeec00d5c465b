/**
 * "Reject…" / "Request changes…" on a task awaiting the CEO: it goes back to its author with the
 * CEO's notes (at least 10 characters, checked before anything is sent).
 */
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { $api } from '../../api/client';
import { ReasonDialog } from '../ui/reason-dialog';

const REJECT_MIN = 10;

export function RequestChangesDialog({
  task,
  onClose,
}: {
  task: { id: string; title: string };
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const reject = $api.useMutation('post', '/api/tasks/{id}/request-changes', {
    onSuccess: () => {
      toast.success(`Sent back for revision: ${task.title}`);
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries(),
  });
  return (
    <ReasonDialog
      title="Reject and ask for changes"
      description={`“${task.title}” goes back to its author with your notes.`}
      fieldLabel={`What must change (at least ${REJECT_MIN} characters)`}
      minLength={REJECT_MIN}
      tooShortMessage={`Say what must change in at least ${REJECT_MIN} characters.`}
      pending={reject.isPending}
      error={reject.error}
      onSubmit={(reason) => reject.mutate({ params: { path: { id: task.id } }, body: { reason } })}
      onClose={onClose}
    />
  );
}
