/**
 * The environment ladder: ordered rungs from the head branch (where pull requests land) down to
 * prod (what a release publishes). Rungs can be added, renamed, reordered and removed; at least two
 * when there is a ladder, names and branches unique. Removing the ladder (asks first) goes back to
 * the single default branch. The server's 422 is shown under the ladder.
 */
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { inputClass } from '../ui/form';
import { Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { ladderProblem, serverFieldErrors } from './rules';
import type { Project, Rung } from './types';
import { usePatchProject } from './use-patch-project';

export function LadderCard({ project }: { project: Project }) {
  const stored = project.environments ?? [];
  const storedKey = JSON.stringify(stored);
  const [rungs, setRungs] = useState<Rung[]>(stored);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const save = usePatchProject(() => setRemoving(false));
  useEffect(() => setRungs(JSON.parse(storedKey)), [storedKey]);
  const dirty = JSON.stringify(rungs) !== storedKey;
  const server = serverFieldErrors(save.error);
  const serverMessage = server.fields.environments ?? null;

  const edit = (index: number, change: Partial<Rung>) => {
    setRungs((list) => list.map((rung, i) => (i === index ? { ...rung, ...change } : rung)));
    setInvalid(null);
  };
  const move = (index: number, by: -1 | 1) =>
    setRungs((list) => {
      const next = [...list];
      const [rung] = next.splice(index, 1);
      next.splice(index + by, 0, rung!);
      return next;
    });

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = ladderProblem(rungs);
    setInvalid(problem);
    if (problem) return;
    save.mutate({
      params: { path: { id: project.id } },
      body: {
        environments: rungs.length
          ? rungs.map((r) => ({ name: r.name.trim(), branch: r.branch.trim() }))
          : null,
      },
    });
  }

  return (
    <Section
      title="Environment ladder"
      description="Ordered rungs from the head branch (pull requests land there) down to prod (what a release publishes). A release merges every rung above prod into prod, head first. Without a ladder, the default branch is all there is."
    >
      <form onSubmit={submit} noValidate className="space-y-3" data-testid="ladder-card">
        {rungs.length === 0 ? (
          <p className="text-muted">
            No ladder: single branch <span className="font-mono text-xs">{project.default_branch}</span>. Add
            rungs to promote through environments.
          </p>
        ) : (
          <ol className="space-y-2" aria-label="Rungs, head first">
            {rungs.map((rung, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rungs are edited in place; the position is the identity
              <li key={index} className="flex flex-wrap items-center gap-2">
                <span className="w-16 text-xs text-muted">
                  {index === 0 ? 'head' : index === rungs.length - 1 ? 'prod' : `rung ${index + 1}`}
                </span>
                <input
                  aria-label={`Rung ${index + 1} name`}
                  className={`${inputClass} max-w-[160px]`}
                  value={rung.name}
                  placeholder="name"
                  onChange={(event) => edit(index, { name: event.target.value })}
                />
                <input
                  aria-label={`Rung ${index + 1} branch`}
                  className={`${inputClass} max-w-[220px] font-mono text-xs`}
                  value={rung.branch}
                  placeholder="branch"
                  onChange={(event) => edit(index, { branch: event.target.value })}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Move rung ${index + 1} up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  <ArrowUp size={14} aria-hidden />
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Move rung ${index + 1} down`}
                  disabled={index === rungs.length - 1}
                  onClick={() => move(index, 1)}
                >
                  <ArrowDown size={14} aria-hidden />
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove rung ${index + 1}`}
                  onClick={() => setRungs((list) => list.filter((_, i) => i !== index))}
                >
                  <Trash2 size={14} aria-hidden />
                </Button>
              </li>
            ))}
          </ol>
        )}
        {(invalid || serverMessage) && (
          <p role="alert" className="text-xs text-danger" data-testid="error-environments">
            {invalid ?? serverMessage}
          </p>
        )}
        {server.problem && <ProblemNote error={save.error} prefix="Could not save the ladder" />}
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() =>
              setRungs((list) =>
                list.length === 0
                  ? [
                      { name: 'dev', branch: project.default_branch },
                      { name: 'prod', branch: '' },
                    ]
                  : [...list, { name: '', branch: '' }],
              )
            }
          >
            Add rung
          </Button>
          <Button type="submit" variant="primary" disabled={!dirty || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save ladder'}
          </Button>
          {stored.length > 0 && (
            <Button variant="danger" onClick={() => setRemoving(true)} disabled={save.isPending}>
              Remove ladder
            </Button>
          )}
        </div>
      </form>
      <Dialog
        open={removing}
        onOpenChange={setRemoving}
        title="Remove the ladder?"
        description={`Releases and merges go back to the single default branch ${project.default_branch}; nothing is promoted.`}
      >
        <div className="flex justify-end gap-2">
          <Button onClick={() => setRemoving(false)}>Cancel</Button>
          <Button
            variant="danger"
            onClick={() =>
              save.mutate({ params: { path: { id: project.id } }, body: { environments: null } })
            }
          >
            Yes, remove the ladder
          </Button>
        </div>
      </Dialog>
    </Section>
  );
}
