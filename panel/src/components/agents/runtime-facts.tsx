/**
 * What an agent runs on, for its page: the route its model comes from (GET /api/providers/resolve;
 * a model named in its profile wins), and the CLI, model and ending of its latest run — a run that
 * failed on start says why in the CLI's own words (the run's detail), and what its network fence
 * refused.
 */
import { Link } from 'react-router';
import { $api } from '../../api/client';
import { usePollInterval } from '../../live/live';
import { RelativeTime } from '../ui/time';
import { BlockedConnections } from './blocked-connections';
import type { Agent } from './use-agents';

/** The agent's latest runs (the page's Recent runs read the same query). */
export function useAgentRuns(agentId: string) {
  const refetchInterval = usePollInterval(30_000);
  return $api.useQuery(
    'get',
    '/api/stream/{agent_id}',
    { params: { path: { agent_id: agentId }, query: { limit: 10 } } },
    { refetchInterval },
  );
}

export function RuntimeFacts({ agent }: { agent: Agent }) {
  const resolved = $api.useQuery('get', '/api/providers/resolve', {
    params: { query: { agent: agent.slug } },
  });
  const latest = useAgentRuns(agent.id).data?.runs[0];
  const route = resolved.data;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1" data-testid="runs-on">
      <dt className="text-muted">Model</dt>
      <dd data-testid="agent-model">
        {agent.model ? (
          <>
            <span className="font-mono">{agent.model}</span> (named in its profile)
          </>
        ) : route?.provider ? (
          <>
            <span className="font-mono">
              {route.provider} · {route.model}
            </span>{' '}
            (the {route.source} route)
          </>
        ) : resolved.isSuccess ? (
          <>
            its CLI's own default — no route applies (
            <Link to="/settings?tab=models" className="text-accent underline">
              Models & agents
            </Link>
            )
          </>
        ) : (
          '…'
        )}
      </dd>
      <dt className="text-muted">Last run</dt>
      <dd data-testid="agent-last-run">
        {latest ? (
          <>
            <span className="font-mono">{latest.provider}</span> CLI
            {latest.model && (
              <>
                {' '}
                on <span className="font-mono">{latest.model}</span>
              </>
            )}{' '}
            · {latest.status}
            {latest.exit_code !== null && ` (exit ${latest.exit_code})`}
            {latest.signal && ` (${latest.signal})`} ·{' '}
            <RelativeTime at={latest.ended_at ?? latest.started_at} />
            {latest.detail && latest.status !== 'running' && (
              <p className={latest.status === 'failed' ? 'text-danger-text' : 'text-muted'}>
                {latest.detail}
              </p>
            )}
          </>
        ) : (
          'never spawned'
        )}
      </dd>
      {latest && latest.blocked_total > 0 && (
        <>
          <dt className="text-muted">Network</dt>
          <dd>
            <BlockedConnections blocked={latest.blocked} total={latest.blocked_total} />
          </dd>
        </>
      )}
    </dl>
  );
}
