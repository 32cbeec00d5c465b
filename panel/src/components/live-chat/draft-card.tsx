/**
 * The interviewer's proposal, to decide on: the task (or each task of a batch) with its criteria,
 * an edit mode for the title and description, who takes it (main PM or board) and Confirm, which
 * opens the task(s) and links to them.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { fetchClient } from '../../api/client';
import { Button } from '../ui/button';
import { ProblemNote } from '../ui/problem-note';

export interface TaskDraft {
  title: string;
  description: string;
  acceptance_criteria: string[];
  team: string;
  type: string;
  project_id?: string;
}

type Route = 'main_pm' | 'board';

export function DraftCard({
  sessionId,
  tasks,
  batchTitle,
  created,
  onCreated,
}: {
  sessionId: string;
  tasks: TaskDraft[];
  batchTitle?: string;
  created: string[] | null;
  onCreated: (ids: string[]) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(tasks[0]?.title ?? '');
  const [description, setDescription] = useState(tasks[0]?.description ?? '');
  const [route, setRoute] = useState<Route>('main_pm');
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const single = batchTitle === undefined;

  const confirm = async () => {
    setPending(true);
    const { data, error } = await fetchClient.POST('/api/prompter/live/{sid}/confirm', {
      params: { path: { sid: sessionId } },
      body: single && editing ? { route, draft: { title, description } } : { route },
    });
    setPending(false);
    if (error) setProblem(error);
    else if (data) onCreated(data.task_ids);
  };

  return (
    <article
      aria-label={single ? 'Proposed task' : 'Proposed batch'}
      data-testid="draft-card"
      className="space-y-3 rounded-lg border border-accent/50 bg-surface p-4"
    >
      <header className="flex items-center justify-between gap-2">
        <h3 className="text-[15px] font-semibold">
          {single ? 'Proposed task' : `Proposed batch: ${batchTitle}`}
        </h3>
        {single && !created && (
          <Button size="sm" variant="ghost" onClick={() => setEditing((e) => !e)}>
            {editing ? 'Done editing' : 'Edit'}
          </Button>
        )}
      </header>
      {tasks.map((task) => (
        <div key={task.title} className="space-y-1">
          {single && editing ? (
            <>
              <label className="block space-y-1">
                <span className="font-medium">Title</span>
                <input
                  className="h-8 w-full rounded-md border border-border bg-surface px-2"
                  value={title}
                  onChange={(e) => setTitle(e.target.value)}
                />
              </label>
              <label className="block space-y-1">
                <span className="font-medium">Description</span>
                <textarea
                  rows={4}
                  className="w-full rounded-md border border-border bg-surface px-2 py-1"
                  value={description}
                  onChange={(e) => setDescription(e.target.value)}
                />
              </label>
            </>
          ) : (
            <>
              <p className="font-semibold">{single ? title : task.title}</p>
              <p className="whitespace-pre-wrap text-muted">{single ? description : task.description}</p>
            </>
          )}
          <p className="text-xs text-muted">
            {task.team} · {task.type}
          </p>
          <ul className="list-disc pl-5">
            {task.acceptance_criteria.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </div>
      ))}
      <ProblemNote error={problem} prefix="Could not create the task" />
      {created ? (
        <p data-testid="created" className="text-ok">
          Created{' '}
          {created.map((id) => (
            <Link key={id} to={`/tasks/${id}`} className="font-mono text-accent underline" title={id}>
              {id.slice(0, 8)}
            </Link>
          ))}
        </p>
      ) : (
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-2">
            <span>Send to</span>
            <select
              className="h-8 rounded-md border border-border bg-surface px-2"
              value={route}
              onChange={(e) => setRoute(e.target.value as Route)}
            >
              <option value="main_pm">the main PM</option>
              <option value="board">the board</option>
            </select>
          </label>
          <Button variant="primary" disabled={pending} onClick={() => void confirm()}>
            Confirm and create
          </Button>
        </div>
      )}
    </article>
  );
}
