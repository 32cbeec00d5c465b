/**
 * The CEO's sign-off on a task awaiting approval, shared by the inbox card and the task page: a
 * root task is approved and merged (its pull request goes into the project's default branch, then
 * it completes), an escalated subtask is approved (it completes). `useApproval` holds the two
 * mutations and the confirm state; `ApproveDialog` asks before acting. The caller places its own
 * button (`approval.label`, opening with `approval.ask()`) and the failure note
 * (`approval.failureShown`, `approval.error`, `approval.failurePrefix`).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { $api } from '../../api/client';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ProblemNote } from '../ui/problem-note';
import type { Task } from './detail/use-task';

type Approvable = Pick<Task, 'id' | 'title' | 'parent_task_id'>;

export function useApproval(task: Approvable) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const isRoot = task.parent_task_id === null;
  const done = (message: string) => {
    setConfirming(false);
    toast.success(message);
  };
  const refresh = () => queryClient.invalidateQueries();
  const merge = $api.useMutation('post', '/api/tasks/{id}/approve-and-merge', {
    onSuccess: (result) =>
      done(
        `Merged and completed: ${task.title}${result?.merge_sha ? ` (${result.merge_sha.slice(0, 7)})` : ''}`,
      ),
    onSettled: refresh,
  });
  const approve = $api.useMutation('post', '/api/tasks/{id}/complete', {
    onSuccess: () => done(`Approved: ${task.title}`),
    onSettled: refresh,
  });
  const action = isRoot ? merge : approve;
  const params = { params: { path: { id: task.id } } };
  return {
    task,
    isRoot,
    confirming,
    setConfirming,
    ask: () => setConfirming(true),
    label: isRoot ? 'Approve & merge' : 'Approve',
    error: action.error,
    pending: action.isPending,
    failureShown: Boolean(action.error) && !confirming,
    failurePrefix: isRoot ? 'Approve & merge failed' : 'Approve failed',
    confirm: () => (isRoot ? merge.mutate(params) : approve.mutate({ ...params, body: {} })),
  };
}

export type Approval = ReturnType<typeof useApproval>;

export function ApproveDialog({ approval }: { approval: Approval }) {
  const { task, isRoot } = approval;
  return (
    <Dialog
      open={approval.confirming}
      onOpenChange={approval.setConfirming}
      title={isRoot ? 'Approve and merge?' : 'Approve?'}
      description={
        isRoot
          ? `The pull request of “${task.title}” is merged into the project's default branch and the task completes.`
          : `“${task.title}” completes with your sign-off.`
      }
    >
      <ProblemNote error={approval.error} />
      <div className="mt-4 flex justify-end gap-2">
        <Button onClick={() => approval.setConfirming(false)}>Cancel</Button>
        <Button variant="primary" disabled={approval.pending} onClick={approval.confirm}>
          {approval.pending ? 'Working…' : isRoot ? 'Yes, approve & merge' : 'Yes, approve'}
        </Button>
      </div>
    </Dialog>
  );
}
