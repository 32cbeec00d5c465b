/**
 * The CEO's god-mode edit: every field PATCH /api/tasks/{id} takes from the CEO that the panel
 * edits (title, description, criteria, priority, team, assignee, status with force, and a reason
 * for the audit trail). Checked before sending; a status change asks once more; the server's 422
 * is shown next to the field it names, anything else above the buttons.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { $api } from '../../../api/client';
import { problemOf } from '../../../api/problem';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { ProblemNote } from '../../ui/problem-note';
import { TASK_STATES, type TaskState, TEAMS, type Team } from '../filters';
import type { Lookups } from '../lookups';
import { stateLabel } from '../state-badge';
import {
  changesOf,
  type FieldErrors,
  formFieldOf,
  formOf,
  needsForce,
  type OverrideForm,
  validate,
} from './override-rules';
import type { Task } from './use-task';

const INPUT = 'w-full rounded-md border border-border bg-surface px-2 py-1.5 text-[13px]';

export function OverrideDialog({
  task,
  lookups,
  onClose,
}: {
  task: Task;
  lookups: Lookups;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const original = useMemo(
    () => formOf(task, task.assigned_to ? lookups.agent(task.assigned_to) : ''),
    [task, lookups],
  );
  const [form, setForm] = useState<OverrideForm>(original);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [confirmingStatus, setConfirmingStatus] = useState(false);
  const save = $api.useMutation('patch', '/api/tasks/{id}', {
    onSuccess: () => {
      toast.success('Task saved');
      onClose();
    },
    onError: (error) => {
      setConfirmingStatus(false);
      const fieldErrors: FieldErrors = {};
      for (const f of problemOf(error).fields) {
        const field = formFieldOf(f.field);
        if (field) fieldErrors[field] = f.message;
      }
      setErrors(fieldErrors);
    },
    onSettled: () => queryClient.invalidateQueries(),
  });
  const problem = save.error ? problemOf(save.error) : null;
  const unplaced = problem?.fields.every((f) => formFieldOf(f.field) === undefined);
  const set = <K extends keyof OverrideForm>(key: K, value: OverrideForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const statusChanges = form.status !== original.status;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(form, original);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = changesOf(form, original);
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    if (statusChanges && !confirmingStatus) {
      setConfirmingStatus(true);
      return;
    }
    save.mutate({ params: { path: { id: task.id } }, body: body as never });
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Edit task (CEO override)"
      description="Changes are saved as the CEO and recorded in the audit trail. A status change bypasses the lifecycle."
    >
      <form onSubmit={submit} noValidate className="space-y-3">
        <Field label="Title" error={errors.title}>
          {(props) => (
            <input
              {...props}
              className={INPUT}
              value={form.title}
              onChange={(e) => set('title', e.target.value)}
            />
          )}
        </Field>
        <Field label="Description" error={errors.description}>
          {(props) => (
            <textarea
              {...props}
              className={`${INPUT} min-h-24`}
              value={form.description}
              onChange={(e) => set('description', e.target.value)}
            />
          )}
        </Field>
        <Field label="Acceptance criteria (one per line, 1–7)" error={errors.criteria}>
          {(props) => (
            <textarea
              {...props}
              className={`${INPUT} min-h-20`}
              value={form.criteria}
              onChange={(e) => set('criteria', e.target.value)}
            />
          )}
        </Field>
        <div className="grid grid-cols-3 gap-3">
          <Field label="Priority" error={errors.priority}>
            {(props) => (
              <select
                {...props}
                className={INPUT}
                value={form.priority}
                onChange={(e) => set('priority', e.target.value)}
              >
                {['0', '1', '2', '3'].map((p) => (
                  <option key={p} value={p}>
                    {p === '0' ? '0 (highest)' : p}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Team" error={errors.team}>
            {(props) => (
              <select
                {...props}
                className={INPUT}
                value={form.team}
                onChange={(e) => set('team', e.target.value as Team)}
              >
                {TEAMS.map((t) => (
                  <option key={t} value={t}>
                    {t.replace('_', ' ')}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Assignee (agent slug)" error={errors.assignee}>
            {(props) => (
              <>
                <input
                  {...props}
                  list="override-agents"
                  className={INPUT}
                  value={form.assignee}
                  placeholder="unassigned"
                  onChange={(e) => set('assignee', e.target.value)}
                />
                <datalist id="override-agents">
                  {lookups.agents.map((a) => (
                    <option key={a.id} value={a.slug} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        </div>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Status (override)" error={errors.status}>
            {(props) => (
              <select
                {...props}
                className={INPUT}
                value={form.status}
                onChange={(e) => {
                  set('status', e.target.value as TaskState);
                  setConfirmingStatus(false);
                }}
              >
                {TASK_STATES.map((s) => (
                  <option key={s} value={s}>
                    {stateLabel(s)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Reason (for the audit trail)" error={errors.reason}>
            {(props) => (
              <input
                {...props}
                className={INPUT}
                value={form.reason}
                onChange={(e) => set('reason', e.target.value)}
              />
            )}
          </Field>
        </div>
        {statusChanges && needsForce(original.status, form.status) && (
          <div>
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={form.force} onChange={(e) => set('force', e.target.checked)} />
              <span>Force: this move skips a review or leaves/enters a terminal state</span>
            </label>
            {errors.force && (
              <p role="alert" className="mt-1 text-danger">
                {errors.force}
              </p>
            )}
          </div>
        )}
        {confirmingStatus && (
          <p role="alert" className="rounded-md border border-warn/40 bg-warn-bg px-3 py-2 text-warn-text">
            Override the status from {stateLabel(original.status)} to {stateLabel(form.status)}? This bypasses
            the lifecycle; press “Yes, override” to save.
          </p>
        )}
        {problem && (unplaced || problem.fields.length === 0) && <ProblemNote error={save.error} />}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant={confirmingStatus ? 'danger' : 'primary'} disabled={save.isPending}>
            {save.isPending ? 'Saving…' : confirmingStatus ? 'Yes, override' : 'Save'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function Field({
  label,
  error,
  children,
}: {
  label: string;
  error?: string;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), ...(error ? { 'aria-describedby': errorId } : {}) })}
      {error && (
        <p id={errorId} role="alert" className="text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
