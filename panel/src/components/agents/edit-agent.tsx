/**
 * Edit an agent's profile (`PATCH /api/agents/{id}`, CEO): name, model, description and
 * capabilities. Checked before sending (the server's limits); the server's error shows in the dialog.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { $api, queryKey } from '../../api/client';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ProblemNote } from '../ui/problem-note';
import { capabilityList, type Draft, draftProblems } from './agent-draft';
import type { Agent } from './use-agents';

const fieldClass = 'mt-1 block w-full rounded-md border border-border bg-surface px-2 py-1 text-[13px]';

export function EditAgentButton({ agent }: { agent: Agent }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>({ name: '', model: '', description: '', capabilities: '' });
  const [problems, setProblems] = useState<Partial<Record<keyof Draft, string>>>({});
  const save = $api.useMutation('patch', '/api/agents/{id}', {
    onSuccess: () => {
      setOpen(false);
      for (const path of ['/api/agents', '/api/agents/{id}'] as const)
        void queryClient.invalidateQueries({ queryKey: queryKey('get', path) });
    },
  });
  const field = (name: keyof Draft, label: string, input: ReactNode) => (
    <div>
      <label htmlFor={`agent-${name}`} className="font-medium">
        {label}
      </label>
      {input}
      {problems[name] && (
        <span id={`agent-${name}-problem`} role="alert" className="mt-0.5 block text-danger-text">
          {problems[name]}
        </span>
      )}
    </div>
  );
  const bind = (name: keyof Draft) => ({
    id: `agent-${name}`,
    value: draft[name],
    'aria-describedby': problems[name] ? `agent-${name}-problem` : undefined,
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
    'aria-invalid': problems[name] !== undefined,
    className: fieldClass,
  });

  return (
    <>
      <Button
        onClick={() => {
          setDraft({
            name: agent.name,
            model: agent.model ?? '',
            description: agent.description,
            capabilities: agent.capabilities.join(', '),
          });
          setProblems({});
          save.reset();
          setOpen(true);
        }}
      >
        <Pencil size={14} aria-hidden /> Edit…
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title={`Edit ${agent.slug}`}>
        <form
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            const found = draftProblems(draft);
            setProblems(found);
            if (Object.keys(found).length > 0) return;
            save.mutate({
              params: { path: { id: agent.id } },
              body: {
                name: draft.name.trim(),
                model: draft.model.trim() || null,
                description: draft.description,
                capabilities: capabilityList(draft.capabilities),
              },
            });
          }}
        >
          {field('name', 'Name', <input {...bind('name')} />)}
          {field('model', 'Model (empty: the default for its role)', <input {...bind('model')} />)}
          {field('description', 'Description', <textarea rows={3} {...bind('description')} />)}
          {field('capabilities', 'Capabilities (comma-separated)', <input {...bind('capabilities')} />)}
          <ProblemNote error={save.error} prefix="Not saved" />
          <div className="flex justify-end gap-2">
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
