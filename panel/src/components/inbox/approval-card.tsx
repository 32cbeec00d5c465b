/**
 * A task waiting for the CEO's decision. A root task gets "Approve & merge" (its pull request is
 * merged into the project's default branch, then it completes); an escalated subtask gets "Approve"
 * (it completes). "Reject…" sends it back to its author with the CEO's notes (10+ characters).
 * Both ask before acting; the server's error is shown on the card.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { $api } from '../../api/client';
import { StateBadge } from '../tasks/state-badge';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ProblemNote } from '../ui/problem-note';
import { ShortId } from '../ui/short-id';
import { RelativeTime } from '../ui/time';
import type { Task } from './use-inbox';

const REJECT_MIN = 10;

export function ApprovalCard({ task }: { task: Task }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const refresh = () => queryClient.invalidateQueries();
  const isRoot = task.parent_task_id === null;
  const merge = $api.useMutation('post', '/api/tasks/{id}/approve-and-merge', {
    onSuccess: (result) => {
      setConfirming(false);
      toast.success(
        `Merged and completed: ${task.title}${result?.merge_sha ? ` (${result.merge_sha.slice(0, 7)})` : ''}`,
      );
    },
    onSettled: refresh,
  });
  const approve = $api.useMutation('post', '/api/tasks/{id}/complete', {
    onSuccess: () => {
      setConfirming(false);
      toast.success(`Approved: ${task.title}`);
    },
    onSettled: refresh,
  });
  const action = isRoot ? merge : approve;
  const params = { params: { path: { id: task.id } } };

  return (
    <article
      aria-label={task.title}
      data-testid={`approval-${task.id}`}
      className="rounded-lg border border-border bg-surface p-4"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-[15px] font-semibold break-words">
            <Link to={`/tasks/${task.id}`} className="hover:underline">
              {task.title}
            </Link>
          </h3>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-muted">
            <ShortId id={task.id} />
            <StateBadge status={task.status} />
            <span>{isRoot ? 'root task: merges into the default branch' : 'escalated subtask'}</span>
            <span>
              · updated <RelativeTime at={task.updated_at} />
            </span>
          </p>
          {task.branch_name && (
            <p className="mt-1 text-muted">
              Branch <span className="font-mono text-xs">{task.branch_name}</span>
              {task.pr_url && (
                <>
                  {' '}
                  ·{' '}
                  <a className="text-accent underline" href={task.pr_url} rel="noreferrer" target="_blank">
                    pull request #{task.pr_number}
                  </a>
                </>
              )}
            </p>
          )}
        </div>
      </div>
      {action.error && !confirming && (
        <div className="mt-3">
          <ProblemNote error={action.error} prefix={isRoot ? 'Approve & merge failed' : 'Approve failed'} />
        </div>
      )}
      <div className="mt-3 flex gap-2">
        <Button variant="primary" onClick={() => setConfirming(true)} disabled={action.isPending}>
          {isRoot ? 'Approve & merge' : 'Approve'}
        </Button>
        <Button onClick={() => setRejecting(true)}>Reject…</Button>
      </div>

      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={isRoot ? 'Approve and merge?' : 'Approve?'}
        description={
          isRoot
            ? `The pull request of “${task.title}” is merged into the project's default branch and the task completes.`
            : `“${task.title}” completes with your sign-off.`
        }
      >
        {action.error && <ProblemNote error={action.error} />}
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button
            variant="primary"
            disabled={action.isPending}
            onClick={() => (isRoot ? merge.mutate(params) : approve.mutate({ ...params, body: {} }))}
          >
            {action.isPending ? 'Working…' : isRoot ? 'Yes, approve & merge' : 'Yes, approve'}
          </Button>
        </div>
      </Dialog>
      {rejecting && <RejectDialog task={task} onClose={() => setRejecting(false)} />}
    </article>
  );
}

function RejectDialog({ task, onClose }: { task: Task; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const reject = $api.useMutation('post', '/api/tasks/{id}/request-changes', {
    onSuccess: () => {
      toast.success(`Sent back for revision: ${task.title}`);
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries(),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (notes.trim().length < REJECT_MIN) {
      setTooShort(true);
      return;
    }
    reject.mutate({ params: { path: { id: task.id } }, body: { reason: notes.trim() } });
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Reject and ask for changes"
      description={`“${task.title}” goes back to its author with your notes.`}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <label className="block space-y-1">
          <span className="block font-medium">What must change (at least {REJECT_MIN} characters)</span>
          <textarea
            className="min-h-24 w-full rounded-md border border-border bg-surface p-2"
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            aria-invalid={tooShort}
          />
        </label>
        {tooShort && (
          <p role="alert" className="text-danger">
            Say what must change in at least {REJECT_MIN} characters.
          </p>
        )}
        {reject.error && <ProblemNote error={reject.error} />}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="danger" disabled={reject.isPending}>
            Reject
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
