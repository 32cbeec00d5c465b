/**
 * Settings → Models & agents → Routing: which provider and model each agent runs — its own route,
 * else its role's, else the global one (none at all: the CLI's own default model). One row per
 * route scope, saved on its own; and "Check an agent", which asks the server which route applies
 * to one agent and why.
 */
import { useState } from 'react';
import { $api } from '../../api/client';
import { type Agent, roleLabel, useRoster } from '../agents/use-agents';
import { Button } from '../ui/button';
import { Loading, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { TableScroll } from '../ui/table-scroll';
import {
  type Provider,
  type Route,
  type Routing,
  routeText,
  useProviders,
  useRefreshModels,
} from './use-models';

/** Who can be routed: everyone but the CEO and the system. */
const NOT_ROUTED = new Set(['ceo', 'system']);

type Scope =
  | { kind: 'global' }
  | { kind: 'role'; role: string }
  | { kind: 'agent'; id: string; slug: string };

export function ModelRouting() {
  const routing = $api.useQuery('get', '/api/providers/routing');
  const providers = useProviders();
  const { agents, roster } = useRoster();
  const [adding, setAdding] = useState('');
  const list = providers.data?.providers ?? [];
  const routable = agents.filter((a) => !NOT_ROUTED.has(a.role) && !a.retired);
  const roles = [...new Set(routable.map((a) => a.role))].sort();

  if (routing.error) return <ProblemNote error={routing.error} prefix="Could not load the routing" />;
  if (!routing.data || providers.isPending || roster.isPending) return <Loading what="the routing" />;
  const data = routing.data;
  const agentRows = routable.filter((a) => data.agents[a.id] !== undefined || a.id === adding);

  return (
    <Section
      title="Routing"
      description="An agent runs its own route, else its role's, else the global one. With no route at all its CLI uses its own default model and the keys in the server's environment."
    >
      {list.length === 0 && (
        <p className="mb-3 text-muted">Connect a provider above before routing anything to it.</p>
      )}
      <TableScroll label="Model routing" bare>
        <table className="w-full text-left" data-testid="routing-table">
          <thead className="text-xs text-muted">
            <tr>
              <th scope="col" className="py-1 font-medium">
                Route
              </th>
              <th scope="col" className="py-1 font-medium">
                Provider
              </th>
              <th scope="col" className="py-1 font-medium">
                Model
              </th>
              <th scope="col" className="py-1 font-medium">
                Runs
              </th>
              <th scope="col" className="py-1 font-medium">
                <span className="sr-only">Save</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            <RouteRow
              scope={{ kind: 'global' }}
              label="Global"
              route={data.global}
              routing={data}
              providers={list}
            />
            {roles.map((role) => (
              <RouteRow
                key={role}
                scope={{ kind: 'role', role }}
                label={`Role: ${roleLabel(role)}`}
                route={data.roles[role] ?? null}
                routing={data}
                providers={list}
              />
            ))}
            {agentRows.map((agent) => (
              <RouteRow
                key={agent.id}
                scope={{ kind: 'agent', id: agent.id, slug: agent.slug }}
                label={`Agent: ${agent.slug}`}
                route={data.agents[agent.id] ?? null}
                routing={data}
                providers={list}
              />
            ))}
          </tbody>
        </table>
      </TableScroll>
      <div className="mt-3 flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2">
          <span>Route one agent on its own</span>
          <select
            className="h-8 rounded-md border border-border bg-surface px-2"
            value=""
            onChange={(e) => setAdding(e.target.value)}
          >
            <option value="">choose an agent…</option>
            {routable
              .filter((a) => data.agents[a.id] === undefined && a.id !== adding)
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.slug}
                </option>
              ))}
          </select>
        </label>
        <CheckAgent agents={routable} />
      </div>
    </Section>
  );
}

function RouteRow({
  scope,
  label,
  route,
  routing,
  providers,
}: {
  scope: Scope;
  label: string;
  route: Route | null;
  routing: Routing;
  providers: readonly Provider[];
}) {
  const refresh = useRefreshModels();
  const [provider, setProvider] = useState(route?.provider ?? '');
  const [model, setModel] = useState(route?.model ?? '');
  const save = $api.useMutation('put', '/api/providers/routing', { onSettled: refresh });
  const changed = provider !== (route?.provider ?? '') || model !== (route?.model ?? '');
  const next = provider ? { provider, model: model.trim() || null } : null;
  const placeholder = providers.find((p) => p.name === provider)?.default_model ?? '';
  const testid =
    scope.kind === 'global'
      ? 'route-global'
      : scope.kind === 'role'
        ? `route-role-${scope.role}`
        : `route-agent-${scope.slug}`;

  function submit() {
    const body =
      scope.kind === 'global'
        ? { global: next }
        : scope.kind === 'role'
          ? { roles: { [scope.role]: next } }
          : { agents: { [scope.id]: next } };
    save.mutate({ body });
  }

  return (
    <tr data-testid={testid}>
      <th scope="row" className="py-1.5 pr-3 font-normal whitespace-nowrap">
        {label}
      </th>
      <td className="py-1.5 pr-2">
        <select
          aria-label={`Provider for ${label}`}
          className="h-8 w-full min-w-[140px] rounded-md border border-border bg-surface px-2"
          value={provider}
          onChange={(e) => setProvider(e.target.value)}
        >
          <option value="">{scope.kind === 'global' ? 'none' : 'inherit'}</option>
          {providers.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </td>
      <td className="py-1.5 pr-2">
        <input
          aria-label={`Model for ${label}`}
          className="h-8 w-full min-w-[160px] rounded-md border border-border bg-surface px-2 font-mono text-xs disabled:opacity-50"
          value={model}
          disabled={!provider}
          onChange={(e) => setModel(e.target.value)}
          placeholder={placeholder && `${placeholder} (default)`}
        />
      </td>
      <td className="py-1.5 pr-2 text-muted" data-testid="route-runs">
        {runsText(scope, routing, providers)}
        {save.error && <ProblemNote error={save.error} prefix="Not saved" />}
      </td>
      <td className="py-1.5 text-right">
        <Button
          size="sm"
          variant={changed ? 'primary' : 'secondary'}
          disabled={!changed || save.isPending}
          onClick={submit}
        >
          Save
        </Button>
      </td>
    </tr>
  );
}

/** What a scope runs as saved: its own route, or what it inherits and from where. */
function runsText(scope: Scope, routing: Routing, providers: readonly Provider[]): string {
  const own =
    scope.kind === 'global'
      ? routing.global
      : scope.kind === 'role'
        ? routing.roles[scope.role]
        : routing.agents[scope.id];
  if (own) return routeText(own, providers);
  if (scope.kind !== 'global' && routing.global) return `${routeText(routing.global, providers)} (global)`;
  return "the CLI's own default";
}

function CheckAgent({ agents }: { agents: readonly Agent[] }) {
  const [slug, setSlug] = useState('');
  const own = agents.find((a) => a.slug === slug)?.model;
  const resolved = $api.useQuery(
    'get',
    '/api/providers/resolve',
    { params: { query: { agent: slug } } },
    { enabled: slug !== '' },
  );
  const answer = resolved.data;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="flex items-center gap-2">
        <span>Check an agent</span>
        <select
          className="h-8 rounded-md border border-border bg-surface px-2"
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
        >
          <option value="">choose…</option>
          {agents.map((a) => (
            <option key={a.slug} value={a.slug}>
              {a.slug}
            </option>
          ))}
        </select>
      </label>
      {answer && (
        <span role="status" data-testid="resolved-route">
          <span className="font-mono">{answer.agent.slug}</span> runs{' '}
          {answer.provider ? (
            <>
              <span className="font-mono">
                {answer.provider} · {answer.model}
              </span>{' '}
              (
              {answer.source === 'agent'
                ? 'its own route'
                : answer.source === 'role'
                  ? `the ${roleLabel(answer.agent.role)} route`
                  : 'the global route'}
              )
            </>
          ) : (
            "its CLI's own default model (no route applies)"
          )}
          {own && (
            <>
              ; its profile names <span className="font-mono">{own}</span>, which it runs instead
            </>
          )}
        </span>
      )}
      {resolved.error && <ProblemNote error={resolved.error} prefix="Could not resolve it" />}
    </div>
  );
}
