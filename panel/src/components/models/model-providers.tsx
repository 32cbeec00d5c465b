/**
 * Settings → Models & agents → Model providers: the connected providers as cards, and a form that
 * connects one — Anthropic, OpenAI, Google Gemini (each at its official endpoint or a compatible
 * server's base URL), or any OpenAI-compatible server by its base URL (a local Ollama, vLLM or LiteLLM). The key is write-only: sent once, stored encrypted, never shown.
 */
import { type FormEvent, useState } from 'react';
import { $api } from '../../api/client';
import { Button } from '../ui/button';
import { EmptyState, Loading, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { ProviderCard } from './provider-card';
import { useProviders, useRefreshModels } from './use-models';

/** Each preset's base URL: `null` = the official endpoint unless one is given; a compatible server needs it. */
const PRESETS = {
  anthropic: {
    label: 'Anthropic',
    kind: 'anthropic',
    name: 'anthropic',
    baseUrl: null,
    model: 'claude-sonnet-4-5',
    key: 'sk-ant-…',
  },
  openai: { label: 'OpenAI', kind: 'openai', name: 'openai', baseUrl: null, model: 'gpt-5', key: 'sk-…' },
  gemini: {
    label: 'Google Gemini',
    kind: 'gemini',
    name: 'google',
    baseUrl: null,
    model: 'gemini-2.5-pro',
    key: 'AIza… (Google AI Studio)',
  },
  compatible: {
    label: 'OpenAI-compatible server (Ollama, vLLM, LiteLLM…)',
    kind: 'openai',
    name: 'local',
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'llama3.1',
    key: 'if the server asks for one',
  },
} as const;
type Preset = keyof typeof PRESETS;

const NAME = /^[a-z0-9][a-z0-9_.-]*$/;

export function ModelProviders() {
  const providers = useProviders();
  return (
    <Section
      title="Model providers"
      description="Where the agents' CLIs and Gaffer's own model calls are sent. Keys are stored encrypted and never shown again."
    >
      {providers.error && <ProblemNote error={providers.error} prefix="Could not load the providers" />}
      {providers.isPending && <Loading what="the providers" />}
      {providers.data?.providers.length === 0 && (
        <EmptyState>
          No model provider is connected: agent CLIs use whatever keys the server's environment holds. Connect
          one below, then route it.
        </EmptyState>
      )}
      <div className="grid gap-3 xl:grid-cols-2">
        {providers.data?.providers.map((provider) => (
          <ProviderCard key={provider.name} provider={provider} />
        ))}
      </div>
      <ConnectProvider />
    </Section>
  );
}

function ConnectProvider() {
  const refresh = useRefreshModels();
  const [preset, setPreset] = useState<Preset>('anthropic');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [key, setKey] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = $api.useMutation('post', '/api/providers', { onSettled: refresh });
  const chosen = PRESETS[preset];

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      name: name.trim() || chosen.name,
      kind: chosen.kind,
      default_model: model.trim() || chosen.model,
      ...(baseUrl.trim() || chosen.baseUrl ? { base_url: baseUrl.trim() } : {}),
      ...(key.trim() ? { api_key: key.trim() } : {}),
    };
    if (!NAME.test(body.name)) {
      setInvalid('The name takes lower-case letters, digits, dot, dash and underscore.');
    } else if (body.base_url !== undefined && !/^https?:\/\/\S+$/.test(body.base_url)) {
      setInvalid(
        chosen.baseUrl
          ? 'Give the server’s base URL, up to and including /v1 (http://127.0.0.1:11434/v1 for Ollama).'
          : 'A base URL starts with http:// or https:// — or leave it empty for the official endpoint.',
      );
    } else {
      setInvalid(null);
      create.mutate(
        { body },
        {
          onSuccess: () => {
            setName('');
            setBaseUrl('');
            setModel('');
            setKey('');
          },
        },
      );
    }
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Connect a provider"
      className="mt-4 grid max-w-[960px] gap-3 border-t border-border pt-4 sm:grid-cols-2"
      noValidate
    >
      <h3 className="font-semibold sm:col-span-2">Connect a provider</h3>
      <label className="space-y-1">
        <span className="block font-medium">Provider</span>
        <select
          className="h-8 w-full rounded-md border border-border bg-surface px-2"
          value={preset}
          onChange={(e) => setPreset(e.target.value as Preset)}
        >
          {Object.entries(PRESETS).map(([value, p]) => (
            <option key={value} value={value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <label className="space-y-1">
        <span className="block font-medium">Name</span>
        <input
          className="h-8 w-full rounded-md border border-border bg-surface px-2 font-mono"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={chosen.name}
        />
      </label>
      <label className="space-y-1 sm:col-span-2">
        <span className="block font-medium">Base URL{chosen.baseUrl ? '' : ' (optional)'}</span>
        <input
          className="h-8 w-full rounded-md border border-border bg-surface px-2 font-mono"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          placeholder={chosen.baseUrl ?? `the official ${chosen.label} endpoint`}
        />
      </label>
      <label className="space-y-1">
        <span className="block font-medium">Default model</span>
        <input
          className="h-8 w-full rounded-md border border-border bg-surface px-2 font-mono"
          value={model}
          onChange={(e) => setModel(e.target.value)}
          placeholder={chosen.model}
        />
      </label>
      <label className="space-y-1">
        <span className="block font-medium">API key</span>
        <input
          type="password"
          autoComplete="off"
          className="h-8 w-full rounded-md border border-border bg-surface px-2"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder={chosen.key}
        />
      </label>
      <div className="sm:col-span-2">
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Connect
        </Button>
      </div>
      {invalid && (
        <p role="alert" className="text-danger sm:col-span-2">
          {invalid}
        </p>
      )}
      {create.error && (
        <div className="sm:col-span-2">
          <ProblemNote error={create.error} prefix="Could not connect the provider" />
        </div>
      )}
    </form>
  );
}
