/**
 * Spawn and stop an agent by hand (`/api/orchestrator/agents/{id}/spawn|stop`). Spawn takes an
 * optional task (a full task UUID, checked before sending); stop asks first, gracefully by default,
 * and shows how the run ended — or the server's answer (409 `agent_not_running`, …) in the dialog.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Play, Square } from 'lucide-react';
import { useState } from 'react';
import { $api } from '../../api/client';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ProblemNote } from '../ui/problem-note';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function useRefreshAgent() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

export function SpawnButton({ slug, defaultTask }: { slug: string; defaultTask: string | null }) {
  const [open, setOpen] = useState(false);
  const [task, setTask] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const refresh = useRefreshAgent();
  const spawn = $api.useMutation('post', '/api/orchestrator/agents/{agent_id}/spawn', {
    onSuccess: () => {
      setOpen(false);
      void refresh();
    },
  });
  const submit = () => {
    const taskId = task.trim();
    if (taskId && !UUID.test(taskId)) {
      setInvalid('A task is named by its full 36-character id (copy it from the task page).');
      return;
    }
    setInvalid(null);
    spawn.mutate({ params: { path: { agent_id: slug } }, body: taskId ? { task_id: taskId } : {} });
  };
  return (
    <>
      <Button
        variant="primary"
        onClick={() => {
          setTask(defaultTask ?? '');
          setInvalid(null);
          spawn.reset();
          setOpen(true);
        }}
      >
        <Play size={14} aria-hidden /> Spawn…
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={`Spawn ${slug}?`}
        description="Starts the agent now on the dispatcher’s runtime, with a fresh token. Give a task to start it in that task’s worktree."
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          className="space-y-3"
        >
          <label className="block">
            <span className="font-medium">Task (optional)</span>
            <input
              value={task}
              onChange={(event) => setTask(event.target.value)}
              placeholder="full task id, e.g. 1a2b3c4d-…"
              aria-invalid={invalid !== null}
              aria-describedby={invalid ? 'spawn-task-error' : undefined}
              className="mt-1 block h-8 w-full rounded-md border border-border bg-surface px-2 font-mono text-xs"
            />
          </label>
          {invalid && (
            <p id="spawn-task-error" role="alert" className="text-danger-text">
              {invalid}
            </p>
          )}
          <ProblemNote error={spawn.error} prefix="The agent was not spawned" />
          <div className="flex justify-end gap-2">
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={spawn.isPending}>
              {spawn.isPending ? 'Spawning…' : 'Spawn'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

/** The Stop button shows while the agent runs; its dialog stays open after the run ends to show how. */
export function StopButton({ slug, running }: { slug: string; running: boolean }) {
  const [open, setOpen] = useState(false);
  const [graceful, setGraceful] = useState(true);
  const refresh = useRefreshAgent();
  const stop = $api.useMutation('post', '/api/orchestrator/agents/{agent_id}/stop', {
    onSettled: () => void refresh(),
  });
  return (
    <>
      {running && (
        <Button
          variant="danger"
          onClick={() => {
            stop.reset();
            setGraceful(true);
            setOpen(true);
          }}
        >
          <Square size={14} aria-hidden /> Stop…
        </Button>
      )}
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={`Stop ${slug}?`}
        description="Its claim on the task stays; the dispatcher leaves the agent alone for a while (a manual spawn ends that)."
      >
        {stop.data ? (
          <div className="space-y-3" data-testid="stop-result">
            <p role="status">
              The run ended: <strong>{stop.data.outcome}</strong> · {stop.data.detail}
            </p>
            <div className="flex justify-end">
              <Button onClick={() => setOpen(false)}>Close</Button>
            </div>
          </div>
        ) : (
          <div className="space-y-3">
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                className="mt-0.5"
                checked={graceful}
                onChange={(event) => setGraceful(event.target.checked)}
              />
              <span>
                Gracefully — ask it to finish (SIGTERM), kill it only after the grace period. Unticked, it is
                killed at once.
              </span>
            </label>
            <ProblemNote error={stop.error} prefix="Not stopped" />
            <div className="flex justify-end gap-2">
              <Button onClick={() => setOpen(false)}>Cancel</Button>
              <Button
                variant="danger"
                disabled={stop.isPending}
                onClick={() => stop.mutate({ params: { path: { agent_id: slug } }, body: { graceful } })}
              >
                {stop.isPending ? 'Stopping…' : graceful ? 'Yes, stop it' : 'Yes, kill it'}
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </>
  );
}
