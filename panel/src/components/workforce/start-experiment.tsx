/**
 * "Start an experiment": the role, what each arm runs (a CLI, a provider of Settings → Models &
 * agents, a model — each optional, at least one per arm), arm B's share of the tasks, when it ends
 * (a number of tasks, an optional cost cap). Checked here before sending; the server's 409 (an
 * experiment already runs on the role) or 422 shows under the form.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { $api, queryKey } from '../../api/client';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { describedBy, Field, fromInput, inputClass, TextInput } from '../ui/form';
import { ProblemNote } from '../ui/problem-note';

/** The roles whose agents the dispatcher starts on tasks. */
const ROLES = ['developer', 'qa', 'documenter', 'pr_reviewer', 'cell_pm', 'main_pm'] as const;

interface ArmDraft {
  cli: string;
  provider: string;
  model: string;
}
interface Draft {
  role: string;
  a: ArmDraft;
  b: ArmDraft;
  share: string;
  maxTasks: string;
  costCap: string;
}
const EMPTY_ARM: ArmDraft = { cli: '', provider: '', model: '' };
const EMPTY: Draft = {
  role: 'developer',
  a: EMPTY_ARM,
  b: EMPTY_ARM,
  share: '50',
  maxTasks: '40',
  costCap: '',
};

const armBody = (arm: ArmDraft) => ({
  cli: fromInput(arm.cli),
  provider: fromInput(arm.provider),
  model: fromInput(arm.model),
});

/** What is wrong with the draft before it is sent, field by field. */
export function experimentProblems(draft: Draft): Record<string, string> {
  const problems: Record<string, string> = {};
  const share = Number(draft.share);
  if (!Number.isInteger(share) || share < 1 || share > 99) problems.share = 'A whole per cent from 1 to 99.';
  const tasks = Number(draft.maxTasks);
  if (!Number.isInteger(tasks) || tasks < 2) problems.maxTasks = 'Two tasks at least.';
  if (draft.costCap.trim() && !(Number(draft.costCap) >= 0.01))
    problems.costCap = 'At least $0.01, or empty.';
  for (const arm of ['a', 'b'] as const) {
    const body = armBody(draft[arm]);
    if (!body.cli && !body.provider && !body.model)
      problems[arm] = 'Name a CLI, a provider or a model for this arm.';
  }
  if (!problems.a && !problems.b && JSON.stringify(armBody(draft.a)) === JSON.stringify(armBody(draft.b)))
    problems.b = 'Arm B runs the same route as arm A.';
  return problems;
}

export function StartExperimentDialog({
  open,
  onOpenChange,
  busyRoles,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Roles with a running experiment (one at a time per role). */
  busyRoles: ReadonlySet<string>;
}) {
  const queryClient = useQueryClient();
  const providers = $api.useQuery('get', '/api/providers', undefined, { enabled: open });
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const start = $api.useMutation('post', '/api/workforce/experiments', {
    onSuccess: (experiment) => {
      toast.success(`The ${experiment.role.replaceAll('_', ' ')} experiment is running`);
      onOpenChange(false);
      setDraft(EMPTY);
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/workforce/experiments') }),
  });
  const setArm = (arm: 'a' | 'b', key: keyof ArmDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [arm]: { ...d[arm], [key]: value } }));
    setProblems(({ [arm]: _, ...rest }) => rest);
  };
  const set = (key: 'share' | 'maxTasks' | 'costCap') => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setProblems(({ [key]: _, ...rest }) => rest);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = experimentProblems(draft);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    start.mutate({
      body: {
        role: draft.role,
        a: armBody(draft.a),
        b: armBody(draft.b),
        share_b: Number(draft.share),
        max_tasks: Number(draft.maxTasks),
        cost_cap_usd: draft.costCap.trim() ? Number(draft.costCap) : null,
      },
    });
  }

  const providerNames = (providers.data?.providers ?? []).map((p) => p.name);
  const armFields = (arm: 'a' | 'b') => (
    <fieldset
      className="min-w-0 space-y-2 rounded-md border border-border p-3"
      aria-describedby={`${arm}-error`}
    >
      <legend className="px-1 font-medium">Arm {arm.toUpperCase()}</legend>
      <Field id={`${arm}-cli`} label="Agent CLI" hint="claude, codex, gemini, or empty for the usual one.">
        <TextInput
          id={`${arm}-cli`}
          value={draft[arm].cli}
          onChange={setArm(arm, 'cli')}
          placeholder="usual"
          mono
        />
      </Field>
      <Field id={`${arm}-provider`} label="Provider" hint="From Models & agents; empty: the role’s route.">
        <select
          {...describedBy(`${arm}-provider`, undefined)}
          className={inputClass}
          value={draft[arm].provider}
          onChange={(event) => setArm(arm, 'provider')(event.target.value)}
        >
          <option value="">The role’s route</option>
          {providerNames.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${arm}-model`} label="Model" hint="Empty: the provider’s default.">
        <TextInput id={`${arm}-model`} value={draft[arm].model} onChange={setArm(arm, 'model')} mono />
      </Field>
      {problems[arm] && (
        <p id={`${arm}-error`} role="alert" className="text-xs text-danger" data-testid={`error-${arm}`}>
          {problems[arm]}
        </p>
      )}
    </fieldset>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Start an experiment"
      description="Each task an agent of the role starts on gets arm B for its share of tasks, else arm A, and keeps it. Nothing switches by itself when it ends: you adopt an arm, or not."
    >
      <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Field id="role" label="Role" hint="One experiment at a time per role.">
            <select
              {...describedBy('role', undefined)}
              className={inputClass}
              value={draft.role}
              onChange={(event) => setDraft((d) => ({ ...d, role: event.target.value }))}
            >
              {ROLES.map((role) => (
                <option key={role} value={role} disabled={busyRoles.has(role)}>
                  {role.replaceAll('_', ' ')}
                  {busyRoles.has(role) ? ' (an experiment runs)' : ''}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {armFields('a')}
        {armFields('b')}
        <Field id="share" label="Arm B’s share (%)" hint="1–99; the rest go to arm A." error={problems.share}>
          <TextInput id="share" value={draft.share} onChange={set('share')} error={problems.share} />
        </Field>
        <Field
          id="maxTasks"
          label="Tasks"
          hint="It ends when this many have ended."
          error={problems.maxTasks}
        >
          <TextInput
            id="maxTasks"
            value={draft.maxTasks}
            onChange={set('maxTasks')}
            error={problems.maxTasks}
          />
        </Field>
        <Field
          id="costCap"
          label="Cost cap (USD)"
          hint="Optional: it ends once its tasks cost this."
          error={problems.costCap}
        >
          <TextInput id="costCap" value={draft.costCap} onChange={set('costCap')} error={problems.costCap} />
        </Field>
        <div className="sm:col-span-2">
          <ProblemNote error={start.error} prefix="Not started" />
        </div>
        <div className="flex justify-end gap-2 sm:col-span-2">
          <Button type="button" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={start.isPending} data-testid="experiment-submit">
            Start
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
