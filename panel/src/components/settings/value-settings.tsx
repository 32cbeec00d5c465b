/**
 * Settings → General: every writable value setting (the CEO's name, transcript retention, the
 * company's monthly budget, model prices…) with the server's label and description, its default as
 * the placeholder, and Save. Changes apply at once; a bad value shows the server's 422 beside it.
 * A value changed elsewhere (another device, a directive) replaces an untouched field when the list
 * is read again; a field being edited keeps the edit and says what the value is now.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { $api, queryKey } from '../../api/client';
import type { paths } from '../../api/schema';
import { Button } from '../ui/button';
import { Loading, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { parseSetting, shapeOf, textOf } from './setting-text';

type Setting =
  paths['/api/settings']['get']['responses'][200]['content']['application/json']['settings'][number];

export function ValueSettings() {
  const settings = $api.useQuery('get', '/api/settings');
  const editable = settings.data?.settings.filter((s) => s.kind === 'value' && s.writable) ?? [];
  return (
    <Section title="General" description="These apply at once.">
      {settings.isPending && <Loading what="settings" />}
      {settings.error && <ProblemNote error={settings.error} prefix="Could not load the settings" />}
      <div className="divide-y divide-border">
        {editable.map((setting) => (
          <SettingRow key={setting.key} setting={setting} />
        ))}
      </div>
    </Section>
  );
}

function SettingRow({ setting }: { setting: Setting }) {
  const queryClient = useQueryClient();
  const shape = shapeOf(setting.value, setting.default);
  const initial = textOf(setting.value, shape);
  const [text, setText] = useState(initial);
  // The server's value this field last took in; when the server's moves, an untouched field follows.
  const [known, setKnown] = useState(initial);
  const [movedUnderEdit, setMovedUnderEdit] = useState(false);
  if (initial !== known) {
    setKnown(initial);
    if (text === known || text === initial) {
      setText(initial);
      setMovedUnderEdit(false);
    } else setMovedUnderEdit(true);
  }
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = $api.useMutation('put', '/api/settings/{key}', {
    onSuccess: () => {
      setSaved(true);
      setMovedUnderEdit(false);
      void queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/settings') });
    },
  });
  const id = `setting-${setting.key}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const parsed = parseSetting(text, shape, setting.default);
    if (!parsed.ok) return setProblem(`${setting.label} ${parsed.problem}.`);
    setProblem(null);
    save.mutate({ params: { path: { key: setting.key } }, body: { value: parsed.value } });
  };

  const inputClass =
    'w-full rounded-md border border-border bg-surface px-2 py-1.5 text-[13px] text-text placeholder:text-muted';
  const placeholder = setting.default === null ? 'not set' : textOf(setting.default, shape);
  return (
    <form
      onSubmit={submit}
      className="grid gap-2 py-3 first:pt-0 last:pb-0 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]"
      data-testid={id}
    >
      <div>
        <label htmlFor={id} className="font-medium">
          {setting.label}
        </label>
        <span className="ml-1.5 font-mono text-xs text-muted">{setting.key}</span>
        <p id={`${id}-help`} className="mt-0.5 text-muted">
          {setting.description}
        </p>
      </div>
      <div className="space-y-2">
        {shape === 'json' ? (
          <textarea
            id={id}
            aria-describedby={`${id}-help`}
            rows={Math.min(12, Math.max(4, text.split('\n').length))}
            value={text}
            placeholder={placeholder}
            onChange={(event) => setText(event.target.value)}
            className={`${inputClass} font-mono text-xs`}
          />
        ) : (
          <input
            id={id}
            aria-describedby={`${id}-help`}
            inputMode={shape === 'number' ? 'decimal' : undefined}
            value={text}
            placeholder={placeholder}
            onChange={(event) => setText(event.target.value)}
            className={inputClass}
          />
        )}
        {problem && (
          <p role="alert" className="text-[13px] text-danger-text">
            {problem}
          </p>
        )}
        <ProblemNote error={save.error} prefix="Not saved" />
        {movedUnderEdit && (
          <p role="status" className="text-[13px] text-warn-text">
            Changed elsewhere to “{initial || 'not set'}” while you edited; Save replaces it with yours.
          </p>
        )}
        <div className="flex items-center gap-2">
          <Button type="submit" size="sm" variant="primary" disabled={save.isPending || text === initial}>
            Save
          </Button>
          {saved && !save.isPending && <span className="text-xs text-muted">Saved.</span>}
        </div>
      </div>
    </form>
  );
}
