/**
 * "New project": slug, name, git URL, provider, forge API URL, default branch and an optional git
 * token. Checked here before sending (slug shape, required fields, lengths); the server's 422 or
 * 409 lands next to the field it names. The engines stay off until opted in on the project page.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { $api, queryKey } from '../../api/client';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { describedBy, Field, fromInput, inputClass, TextInput } from '../ui/form';
import { ProblemNote } from '../ui/problem-note';
import { type FieldErrors, type ProjectDraft, projectDraftProblems, serverFieldErrors } from './rules';
import { GIT_PROVIDERS, type ProjectCreate } from './types';

const EMPTY: ProjectDraft = {
  slug: '',
  name: '',
  git_url: '',
  git_provider: '',
  forge_api_url: '',
  default_branch: '',
  git_token: '',
};

function bodyOf(draft: ProjectDraft): ProjectCreate {
  const body: ProjectCreate = {
    slug: draft.slug.trim(),
    name: draft.name.trim(),
    git_url: draft.git_url.trim(),
  };
  if (draft.git_provider) body.git_provider = draft.git_provider as ProjectCreate['git_provider'];
  const forge = fromInput(draft.forge_api_url);
  if (forge) body.forge_api_url = forge;
  const branch = fromInput(draft.default_branch);
  if (branch) body.default_branch = branch;
  if (draft.git_token) body.git_token = draft.git_token;
  return body;
}

export function CreateProjectDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<ProjectDraft>(EMPTY);
  const [local, setLocal] = useState<FieldErrors>({});
  const create = $api.useMutation('post', '/api/projects', {
    onSuccess: (project) => {
      toast.success(`Project ${project.name} created`);
      onOpenChange(false);
      setDraft(EMPTY);
      navigate(`/projects/${project.slug}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/projects') }),
  });
  const server = serverFieldErrors(create.error);
  const errors: FieldErrors = { ...server.fields, ...local };
  const set = (key: keyof ProjectDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setLocal(({ [key]: _, ...rest }) => rest);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const problems = projectDraftProblems(draft);
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    create.mutate({ body: bodyOf(draft) });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New project"
      description="A repository the company works on. CI-watch and the dependency bot stay off until you opt in on the project's page."
    >
      <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2">
        <Field
          id="slug"
          label="Slug"
          hint="Its handle in URLs and commands: a-z, 0-9 and -."
          error={errors.slug}
        >
          <TextInput
            id="slug"
            value={draft.slug}
            onChange={set('slug')}
            error={errors.slug}
            placeholder="shop-api"
            mono
          />
        </Field>
        <Field id="name" label="Name" hint="What people call it." error={errors.name}>
          <TextInput
            id="name"
            value={draft.name}
            onChange={set('name')}
            error={errors.name}
            placeholder="Shop API"
          />
        </Field>
        <div className="sm:col-span-2">
          <Field
            id="git_url"
            label="Git URL"
            hint="https://host/owner/repo.git, git@host:owner/repo.git or a local bare repository. No credentials here: use the token."
            error={errors.git_url}
          >
            <TextInput
              id="git_url"
              value={draft.git_url}
              onChange={set('git_url')}
              error={errors.git_url}
              placeholder="https://github.com/acme/shop-api.git"
              mono
            />
          </Field>
        </div>
        <Field
          id="git_provider"
          label="Provider"
          hint="Inferred from the URL when left on automatic."
          error={errors.git_provider}
        >
          <select
            {...describedBy('git_provider', errors.git_provider)}
            className={inputClass}
            value={draft.git_provider}
            onChange={(event) => set('git_provider')(event.target.value)}
          >
            <option value="">Automatic</option>
            {GIT_PROVIDERS.map((provider) => (
              <option key={provider} value={provider}>
                {provider}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id="default_branch"
          label="Default branch"
          hint="Where pull requests land."
          error={errors.default_branch}
        >
          <TextInput
            id="default_branch"
            value={draft.default_branch}
            onChange={set('default_branch')}
            error={errors.default_branch}
            placeholder="main"
            mono
          />
        </Field>
        <Field
          id="forge_api_url"
          label="Forge API URL"
          hint="Only for GitHub Enterprise or Gitea hosts; https."
          error={errors.forge_api_url}
        >
          <TextInput
            id="forge_api_url"
            value={draft.forge_api_url}
            onChange={set('forge_api_url')}
            error={errors.forge_api_url}
            placeholder="(the provider's default)"
            mono
          />
        </Field>
        <Field
          id="git_token"
          label="Git token"
          hint="Optional; stored encrypted and never shown again."
          error={errors.git_token}
        >
          <TextInput
            id="git_token"
            type="password"
            value={draft.git_token}
            onChange={set('git_token')}
            error={errors.git_token}
          />
        </Field>
        {server.problem && (
          <div className="sm:col-span-2">
            <ProblemNote error={create.error} prefix="Could not create the project" />
          </div>
        )}
        <div className="flex justify-end gap-2 sm:col-span-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create project'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
