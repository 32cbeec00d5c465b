/**
 * A settings card of a project: fields with a one-line explanation under each (and the default as
 * the placeholder), checked before sending; Save sends only what changed (empty = null for the
 * fields that may be cleared) and shows the server's 422 next to the field it names.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../ui/button';
import { describedBy, Field, inputClass, TextArea, TextInput } from '../ui/form';
import { Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import {
  type CardDraft,
  type FieldErrors,
  type FieldSpec,
  fieldProblems,
  listEntries,
  serverFieldErrors,
} from './rules';
import type { Project, ProjectPatch } from './types';

export type { FieldSpec } from './rules';

import { usePatchProject } from './use-patch-project';

function draftOf(project: Project, fields: readonly FieldSpec[]): CardDraft {
  const draft: CardDraft = {};
  for (const spec of fields) {
    const value = project[spec.key];
    if (spec.kind === 'checkbox') draft[spec.key] = value === true;
    else if (spec.kind === 'list') draft[spec.key] = Array.isArray(value) ? value.join('\n') : '';
    else if (value === null || value === undefined || value === spec.defaultValue) draft[spec.key] = '';
    else draft[spec.key] = String(value);
  }
  return draft;
}

function patchOf(draft: CardDraft, initial: CardDraft, fields: readonly FieldSpec[]): ProjectPatch {
  const patch: Record<string, unknown> = {};
  for (const spec of fields) {
    const value = draft[spec.key];
    if (value === undefined || value === initial[spec.key]) continue;
    if (typeof value === 'boolean') patch[spec.key] = value;
    else if (spec.kind === 'list') patch[spec.key] = listEntries(value);
    else if (value.trim() === '') patch[spec.key] = null;
    else patch[spec.key] = spec.kind === 'money' ? Number(value.trim()) : value.trim();
  }
  return patch as ProjectPatch;
}

export function FieldsCard({
  project,
  title,
  description,
  fields,
  testId,
}: {
  project: Project;
  title: string;
  description: string;
  fields: readonly FieldSpec[];
  testId: string;
}) {
  const initial = draftOf(project, fields);
  const [draft, setDraft] = useState<CardDraft>(initial);
  const [local, setLocal] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const save = usePatchProject(() => setSaved(true));
  const server = serverFieldErrors(save.error);
  const errors = { ...server.fields, ...local };
  const initialKey = JSON.stringify(initial);
  // A fresh copy of the project (saved, or changed elsewhere) resets the draft.
  useEffect(() => setDraft(JSON.parse(initialKey)), [initialKey]);
  const dirty = JSON.stringify(draft) !== initialKey;

  const set = (key: string, value: string | boolean) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setLocal(({ [key]: _, ...rest }) => rest);
    setSaved(false);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const problems = fieldProblems(draft, fields);
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    save.mutate({ params: { path: { id: project.id } }, body: patchOf(draft, initial, fields) });
  }

  return (
    <Section title={title} description={description}>
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2" data-testid={testId}>
        {fields.map((spec) => {
          const id = spec.key;
          const value = draft[spec.key];
          const error = errors[spec.key];
          if (spec.kind === 'checkbox') {
            return (
              <div key={id} className="sm:col-span-2">
                <label className="flex items-center gap-2 font-medium">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-[var(--accent)]"
                    {...describedBy(id, error)}
                    checked={value === true}
                    onChange={(event) => set(id, event.target.checked)}
                  />
                  {spec.label}
                </label>
                <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
                  {spec.hint}
                </p>
                {error && (
                  <p
                    id={`${id}-error`}
                    role="alert"
                    className="whitespace-pre-line text-xs text-danger"
                    data-testid={`error-${id}`}
                  >
                    {error}
                  </p>
                )}
              </div>
            );
          }
          return (
            <div key={id} className={spec.wide ? 'sm:col-span-2' : ''}>
              <Field id={id} label={spec.label} hint={spec.hint} error={error}>
                {spec.kind === 'select' ? (
                  <select
                    {...describedBy(id, error)}
                    className={inputClass}
                    value={String(value)}
                    onChange={(event) => set(id, event.target.value)}
                  >
                    {spec.options?.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                ) : spec.kind === 'list' ? (
                  <TextArea
                    id={id}
                    value={String(value)}
                    onChange={(text) => set(id, text)}
                    error={error}
                    {...(spec.placeholder ? { placeholder: spec.placeholder } : {})}
                  />
                ) : (
                  <TextInput
                    id={id}
                    value={String(value)}
                    onChange={(text) => set(id, text)}
                    error={error}
                    {...(spec.placeholder ? { placeholder: spec.placeholder } : {})}
                    mono={spec.mono ?? false}
                  />
                )}
              </Field>
            </div>
          );
        })}
        {server.problem && (
          <div className="sm:col-span-2">
            <ProblemNote error={save.error} prefix="Could not save" />
          </div>
        )}
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" variant="primary" disabled={save.isPending || !dirty}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
          {dirty && (
            <Button onClick={() => setDraft(initial)} disabled={save.isPending}>
              Discard changes
            </Button>
          )}
          {saved && !dirty && (
            <span role="status" className="text-ok">
              Saved.
            </span>
          )}
        </div>
      </form>
    </Section>
  );
}
