/**
 * One connected model provider: what it is, whether its key is set (never the key), a Test that
 * shows the probe's answer inline, the key set / replaced / cleared, enabled or not, and removal.
 */
import { type FormEvent, useState } from 'react';
import { $api } from '../../api/client';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ProblemNote } from '../ui/problem-note';
import { probeText } from './provider-probe';
import { type Provider, useRefreshModels } from './use-models';

const TONE = {
  ok: 'border border-ok/40 bg-ok-bg',
  held: 'bg-warn-bg text-warn-text',
  failed: 'bg-danger-bg text-danger-text',
} as const;

const KIND_LABEL = {
  anthropic: 'Anthropic Messages',
  openai: 'OpenAI-compatible',
  gemini: 'Gemini API',
} as const;
const VENDOR = { anthropic: 'Anthropic', openai: 'OpenAI', gemini: 'Google Gemini' } as const;

export function ProviderCard({ provider }: { provider: Provider }) {
  const refresh = useRefreshModels();
  const path = { params: { path: { name: provider.name } } };
  const test = $api.useMutation('post', '/api/providers/{name}/test');
  const change = $api.useMutation('patch', '/api/providers/{name}', { onSettled: refresh });
  const [key, setKey] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);

  function saveKey(event: FormEvent) {
    event.preventDefault();
    if (!key.trim()) return;
    change.mutate({ ...path, body: { api_key: key.trim() } }, { onSuccess: () => setKey('') });
  }

  const answer = test.data ? probeText(test.data, provider.default_model) : null;
  return (
    <article
      aria-label={`Provider ${provider.name}`}
      data-testid={`provider-${provider.name}`}
      className="space-y-3 rounded-md border border-border p-3"
    >
      <header className="flex flex-wrap items-center gap-2">
        <h3 className="font-mono text-[15px] font-semibold">{provider.name}</h3>
        <span className="rounded bg-surface-2 px-1.5 py-0.5 text-xs">{KIND_LABEL[provider.kind]}</span>
        {!provider.enabled && (
          <span className="rounded bg-warn-bg px-1.5 py-0.5 text-xs text-warn-text">disabled</span>
        )}
        <div className="ml-auto flex gap-2">
          <Button
            size="sm"
            variant="primary"
            disabled={test.isPending}
            onClick={() => test.mutate({ ...path, params: { ...path.params, query: { mode: 'models' } } })}
          >
            {test.isPending ? 'Testing…' : 'Test'}
          </Button>
          <Button
            size="sm"
            disabled={change.isPending}
            onClick={() => change.mutate({ ...path, body: { enabled: !provider.enabled } })}
          >
            {provider.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirmDelete(true)}>
            Remove…
          </Button>
        </div>
      </header>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted">Base URL</dt>
        <dd className="truncate font-mono text-xs" title={provider.base_url ?? undefined}>
          {provider.base_url ?? `the official ${VENDOR[provider.kind]} endpoint`}
        </dd>
        <dt className="text-muted">Default model</dt>
        <dd className="font-mono text-xs">{provider.default_model}</dd>
        <dt className="text-muted">Key</dt>
        <dd data-testid="key-state" className={provider.api_key_set ? 'text-ok' : 'text-muted'}>
          {provider.api_key_set ? 'set (never shown)' : 'not set'}
        </dd>
      </dl>
      {answer && (
        <p role="status" data-testid="probe-answer" className={`rounded-md px-3 py-2 ${TONE[answer.tone]}`}>
          {answer.text}
        </p>
      )}
      {test.error && <ProblemNote error={test.error} prefix="Could not test the provider" />}
      <form onSubmit={saveKey} className="flex flex-wrap items-center gap-2" noValidate>
        <label className="flex min-w-[240px] flex-1 items-center gap-2">
          <span className="sr-only">API key for {provider.name}</span>
          <input
            type="password"
            autoComplete="off"
            className="h-8 w-full rounded-md border border-border bg-surface px-2"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder={provider.api_key_set ? '•••••• (set; type a new key to replace it)' : 'API key'}
          />
        </label>
        <Button type="submit" size="sm" disabled={change.isPending || !key.trim()}>
          {provider.api_key_set ? 'Replace key' : 'Set key'}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          disabled={change.isPending || !provider.api_key_set}
          onClick={() => change.mutate({ ...path, body: { api_key: null } })}
        >
          Clear key
        </Button>
      </form>
      {change.error && <ProblemNote error={change.error} prefix="Could not change the provider" />}
      {confirmDelete && <RemoveDialog name={provider.name} onClose={() => setConfirmDelete(false)} />}
    </article>
  );
}

function RemoveDialog({ name, onClose }: { name: string; onClose: () => void }) {
  const refresh = useRefreshModels();
  const remove = $api.useMutation('delete', '/api/providers/{name}', { onSettled: refresh });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Remove ${name}?`}
      description="Its key and every route to it go with it; agents routed to it fall back to their role's or the global route."
    >
      {remove.error && <ProblemNote error={remove.error} prefix="Could not remove it" />}
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>Keep it</Button>
        <Button
          variant="danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ params: { path: { name } } }, { onSuccess: onClose })}
        >
          Remove
        </Button>
      </div>
    </Dialog>
  );
}
