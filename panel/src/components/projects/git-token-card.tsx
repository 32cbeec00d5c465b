/**
 * The project's git token, write-only: only whether one is set is ever shown. Set (or replace) it,
 * or clear it after a confirmation; the input is emptied as soon as it is sent.
 */
import { type FormEvent, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Field, TextInput } from '../ui/form';
import { Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import type { Project } from './types';
import { usePatchProject } from './use-patch-project';

export function GitTokenCard({ project }: { project: Project }) {
  const [token, setToken] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const [clearing, setClearing] = useState(false);
  const save = usePatchProject(() => {
    setToken('');
    setClearing(false);
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token.trim()) return setInvalid('Paste the token to store (or use Clear to remove the stored one).');
    if (token.length > 1000) return setInvalid('At most 1000 characters.');
    setInvalid(undefined);
    save.mutate({ params: { path: { id: project.id } }, body: { git_token: token.trim() } });
  }

  return (
    <Section
      title="Git token"
      description="Used to clone, push and call the forge's API. Stored encrypted; it is never shown again, only whether one is set."
    >
      <p className="mb-3" data-testid="git-token-state">
        Token:{' '}
        <span className={`font-semibold ${project.has_git_token ? 'text-ok' : 'text-muted'}`}>
          {project.has_git_token ? 'set' : 'not set'}
        </span>
      </p>
      <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-2">
        <div className="w-full max-w-[420px]">
          <Field
            id="git_token"
            label={project.has_git_token ? 'Replace the token' : 'Set a token'}
            error={invalid}
          >
            <TextInput
              id="git_token"
              type="password"
              value={token}
              onChange={(value) => {
                setToken(value);
                setInvalid(undefined);
              }}
              error={invalid}
              hint={false}
              placeholder={project.has_git_token ? '•••••• (set; type to replace)' : 'ghp_… or a Gitea token'}
            />
          </Field>
        </div>
        <div className="flex gap-2 pt-6">
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Save token
          </Button>
          <Button
            variant="danger"
            disabled={save.isPending || !project.has_git_token}
            onClick={() => setClearing(true)}
          >
            Clear token
          </Button>
        </div>
      </form>
      {save.error && !clearing && (
        <div className="mt-3">
          <ProblemNote error={save.error} prefix="Could not change the token" />
        </div>
      )}
      <Dialog
        open={clearing}
        onOpenChange={setClearing}
        title="Clear the git token?"
        description="Agents and engines can no longer reach a private repository or the forge's API for this project until a new token is set."
      >
        {save.error && <ProblemNote error={save.error} />}
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => setClearing(false)}>Cancel</Button>
          <Button
            variant="danger"
            disabled={save.isPending}
            onClick={() => save.mutate({ params: { path: { id: project.id } }, body: { git_token: '' } })}
          >
            Yes, clear the token
          </Button>
        </div>
      </Dialog>
    </Section>
  );
}
