/**
 * What the CEO may do to the task from its page: the god-mode edit (override-dialog.tsx), assign
 * the reviewing PM while it awaits PM review, and approve (& merge) or request changes while it
 * awaits the CEO. Each asks first and shows the server's error where it happened. On a phone or a
 * tablet reading the Changes tab, approve and request changes sit in a bar kept at the bottom of
 * the screen (ReviewBar) instead of the header, so they stay in reach while the diff scrolls.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { $api } from '../../../api/client';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { ProblemNote } from '../../ui/problem-note';
import { ApproveDialog, useApproval } from '../approve-dialog';
import type { Lookups } from '../lookups';
import { RequestChangesDialog } from '../request-changes-dialog';
import { OverrideDialog } from './override-dialog';
import type { Task } from './use-task';

export function TaskActions({
  task,
  lookups,
  reviewInBar = false,
}: {
  task: Task;
  lookups: Lookups;
  /** The review actions are in the ReviewBar below `lg` (the Changes tab). */
  reviewInBar?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="flex flex-wrap gap-2">
      <div className={reviewInBar ? 'hidden flex-wrap gap-2 lg:flex' : 'contents'}>
        <ReviewActions task={task} />
      </div>
      {task.status === 'awaiting_pm_review' && <AssignReviewPm task={task} />}
      <Button onClick={() => setEditing(true)}>
        <Pencil size={14} aria-hidden />
        Edit (override)…
      </Button>
      {editing && <OverrideDialog task={task} lookups={lookups} onClose={() => setEditing(false)} />}
    </div>
  );
}

/** Approve (& merge) and request changes, while the task awaits the CEO; nothing otherwise. */
function ReviewActions({ task }: { task: Task }) {
  const [rejecting, setRejecting] = useState(false);
  if (task.status !== 'awaiting_ceo_approval') return null;
  return (
    <>
      <ApproveButton task={task} />
      <Button onClick={() => setRejecting(true)}>Request changes…</Button>
      {rejecting && <RequestChangesDialog task={task} onClose={() => setRejecting(false)} />}
    </>
  );
}

/** Below `lg`, the review actions kept at the bottom of the screen while the diff scrolls. */
export function ReviewBar({ task }: { task: Task }) {
  if (task.status !== 'awaiting_ceo_approval') return null;
  return (
    <div
      data-testid="review-bar"
      className="sticky bottom-0 z-20 -mx-4 flex flex-wrap justify-end gap-2 border-t border-border bg-surface px-4 py-2 sm:-mx-6 sm:px-6 lg:hidden"
    >
      <ReviewActions task={task} />
    </div>
  );
}

function ApproveButton({ task }: { task: Task }) {
  const approval = useApproval(task);
  return (
    <>
      <Button variant="primary" onClick={approval.ask}>
        {approval.label}
      </Button>
      {approval.failureShown && (
        <div className="basis-full">
          <ProblemNote error={approval.error} prefix={approval.failurePrefix} />
        </div>
      )}
      <ApproveDialog approval={approval} />
    </>
  );
}

function AssignReviewPm({ task }: { task: Task }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const assign = $api.useMutation('post', '/api/tasks/{id}/assign-review-pm', {
    onSuccess: () => {
      setConfirming(false);
      toast.success('The reviewing PM now holds the task');
    },
    onSettled: () => queryClient.invalidateQueries(),
  });
  return (
    <>
      <Button onClick={() => setConfirming(true)}>Assign review PM</Button>
      {assign.error && !confirming && (
        <div className="basis-full">
          <ProblemNote error={assign.error} prefix="Assign review PM failed" />
        </div>
      )}
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Assign the reviewing PM?"
        description="The cell PM of the task's team (else the main PM) becomes its owner and claimant, to review it."
      >
        {assign.error && <ProblemNote error={assign.error} />}
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button
            variant="primary"
            disabled={assign.isPending}
            onClick={() => assign.mutate({ params: { path: { id: task.id } } })}
          >
            {assign.isPending ? 'Working…' : 'Yes, assign'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
