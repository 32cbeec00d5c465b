/**
 * Work session: the task's branch and pull request, and each git session an agent ran on it
 * (GET /api/work-sessions?task_id=): who, branch from base, status, commits and files changed.
 */
import { $api } from '../../../api/client';
import { EmptyState, Loading } from '../../ui/page';
import { ProblemNote } from '../../ui/problem-note';
import { RelativeTime } from '../../ui/time';
import type { Lookups } from '../lookups';
import type { Task } from './use-task';

export function WorkSessionTab({ task, lookups }: { task: Task; lookups: Lookups }) {
  const sessions = $api.useQuery('get', '/api/work-sessions', {
    params: { query: { task_id: task.id, limit: 20, offset: 0 } },
  });
  return (
    <div className="space-y-4" data-testid="work-session">
      <p>
        Task branch{' '}
        {task.branch_name ? (
          <span className="font-mono text-xs">{task.branch_name}</span>
        ) : (
          <span className="text-muted">none yet</span>
        )}
        {' · '}
        {task.pr_url ? (
          <a className="text-accent underline" href={task.pr_url} rel="noreferrer" target="_blank">
            pull request #{task.pr_number}
          </a>
        ) : (
          <span className="text-muted">no pull request</span>
        )}
      </p>
      {sessions.error && <ProblemNote error={sessions.error} prefix="Could not load the work sessions" />}
      {sessions.isPending && <Loading what="the work sessions" />}
      {sessions.data?.sessions.length === 0 && (
        <EmptyState>
          No work session yet: one starts when an agent begins work on the task's branch.
        </EmptyState>
      )}
      {sessions.data?.sessions.map((s) => (
        <section
          key={s.id}
          aria-label={`Session on ${s.branch}`}
          className="rounded-lg border border-border bg-surface p-3"
        >
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-xs">{s.branch}</span>
            {s.base_branch && <span className="text-muted">from {s.base_branch}</span>}
            <span className="rounded border border-border bg-surface-2 px-1.5 py-0.5 text-xs">
              {s.status}
            </span>
            <span className="text-muted">
              by {lookups.agent(s.agent_id)} · started <RelativeTime at={s.started_at} />
              {s.ended_at && (
                <>
                  {' '}
                  · ended <RelativeTime at={s.ended_at} />
                </>
              )}
            </span>
            {s.pr_url && (
              <a className="text-accent underline" href={s.pr_url} rel="noreferrer" target="_blank">
                PR #{s.pr_number}
              </a>
            )}
          </p>
          <h3 className="mt-2 text-xs font-semibold text-muted">Commits ({s.commits.length})</h3>
          {s.commits.length === 0 ? (
            <p className="text-muted">No commits recorded.</p>
          ) : (
            <ul className="mt-1 space-y-0.5">
              {s.commits.map((c) => (
                <li key={c.hash} className="flex gap-2">
                  <span className="font-mono text-xs" title={c.hash}>
                    {c.hash.slice(0, 7)}
                  </span>
                  <span className="min-w-0 flex-1 truncate" title={c.message}>
                    {c.message}
                  </span>
                  <span className="text-muted">
                    <RelativeTime at={c.at} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {s.files_changed.length > 0 && (
            <p className="mt-2 font-mono text-xs break-words text-muted">{s.files_changed.join(' · ')}</p>
          )}
        </section>
      ))}
    </div>
  );
}
