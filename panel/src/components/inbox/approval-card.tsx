/**
 * A task waiting for the CEO's decision. A root task gets "Approve & merge" (its pull request is
 * merged into the project's default branch, then it completes); an escalated subtask gets "Approve"
 * (it completes). "Reject…" sends it back to its author with the CEO's notes (10+ characters).
 * Both ask before acting; the server's error is shown on the card.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { $api } from '../../api/client';
import { ApproveDialog, useApproval } from '../tasks/approve-dialog';
import { changeSummary } from '../tasks/changes/diff-rows';
import { RequestChangesDialog } from '../tasks/request-changes-dialog';
import { StateBadge } from '../tasks/state-badge';
import { Button } from '../ui/button';
import { ProblemNote } from '../ui/problem-note';
import { ShortId } from '../ui/short-id';
import { RelativeTime } from '../ui/time';
import type { Task } from './use-inbox';

export function ApprovalCard({ task }: { task: Task }) {
  const approval = useApproval(task);
  const [rejecting, setRejecting] = useState(false);
  const { isRoot } = approval;

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
              {task.pr_number !== null && (
                <>
                  {' '}
                  ·{' '}
                  {/* A local project's pull request (local://…) lives only in Gaffer: the review is its page. */}
                  {task.pr_url && /^https?:\/\//.test(task.pr_url) ? (
                    <a className="text-accent underline" href={task.pr_url} rel="noreferrer" target="_blank">
                      pull request #{task.pr_number} on the forge
                    </a>
                  ) : (
                    <>pull request #{task.pr_number}</>
                  )}
                </>
              )}
            </p>
          )}
          {task.branch_name && <ChangeLine taskId={task.id} />}
        </div>
      </div>
      {approval.failureShown && (
        <div className="mt-3">
          <ProblemNote error={approval.error} prefix={approval.failurePrefix} />
        </div>
      )}
      <div className="mt-3 flex gap-2">
        <Button variant="primary" onClick={approval.ask} disabled={approval.pending}>
          {approval.label}
        </Button>
        <Button onClick={() => setRejecting(true)}>Reject…</Button>
      </div>
      <ApproveDialog approval={approval} />
      {rejecting && <RequestChangesDialog task={task} onClose={() => setRejecting(false)} />}
    </article>
  );
}

/** "+N −M in K files" and the way to the review page. */
function ChangeLine({ taskId }: { taskId: string }) {
  const change = $api.useQuery('get', '/api/tasks/{id}/changes', { params: { path: { id: taskId } } });
  return (
    <p className="mt-1">
      {change.data && (
        <span className="mr-2" data-testid="approval-change">
          {changeSummary(change.data.totals)}
          {!change.data.mergeable && (
            <span className="text-danger-text"> · conflicts with {change.data.base.branch}</span>
          )}
        </span>
      )}
      <Link to={`/tasks/${taskId}/changes`} className="text-accent underline">
        Review the change
      </Link>
    </p>
  );
}
