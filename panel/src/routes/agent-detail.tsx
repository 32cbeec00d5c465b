/**
 * One agent (`/agents/{slug or id}`): who it is (Edit… its profile), whether it runs (Spawn / Stop), its current and
 * recent tasks, its recent runs, what it runs on (model route, the last run's CLI and ending), its output live over `/ws/agents/{id}` (Overview); and the
 * conversations it takes part in (`?tab=conversations`).
 */
import { Link, useParams } from 'react-router';
import { $api } from '../api/client';
import { Conversations } from '../components/a2a/conversations';
import { AgentStatusBadge, RunBadge } from '../components/agents/agent-badges';
import { EditAgentButton } from '../components/agents/edit-agent';
import { LiveOutput } from '../components/agents/live-output';
import { SpawnButton, StopButton } from '../components/agents/run-controls';
import { RuntimeFacts, useAgentRuns } from '../components/agents/runtime-facts';
import { type Agent, roleLabel, useRunningAgents } from '../components/agents/use-agents';
import { StateBadge } from '../components/tasks/state-badge';
import { EmptyState, Loading, Page, Section } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { ShortId } from '../components/ui/short-id';
import { TableScroll } from '../components/ui/table-scroll';
import { TabLinks, useTab } from '../components/ui/tabs';
import { RelativeTime } from '../components/ui/time';
import { usePollInterval } from '../live/live';

const TABS = ['overview', 'conversations'] as const;
/** The CEO and the system are people and the platform itself: nothing to spawn. */
const NOT_SPAWNABLE = new Set(['ceo', 'system']);

export default function AgentDetailPage() {
  const { id = '' } = useParams();
  const agent = $api.useQuery('get', '/api/agents/{id}', { params: { path: { id } } });
  const tab = useTab(TABS);
  if (agent.error) {
    return (
      <Page title="Agent">
        <ProblemNote error={agent.error} prefix={`Could not load agent ${id}`} />
        <Link to="/agents" className="text-accent underline">
          Back to the roster
        </Link>
      </Page>
    );
  }
  if (!agent.data)
    return (
      <Page title="Agent">
        <Loading what="the agent" />
      </Page>
    );
  return <AgentView agent={agent.data} tab={tab} />;
}

function AgentView({ agent, tab }: { agent: Agent; tab: (typeof TABS)[number] }) {
  const running = useRunningAgents();
  const run = running.data?.agents.find((r) => r.agent_id === agent.id);
  return (
    <Page
      title={agent.name}
      actions={
        <div className="flex items-center gap-2">
          <RunBadge run={run} />
          {!NOT_SPAWNABLE.has(agent.role) && !agent.retired && <EditAgentButton agent={agent} />}
          <StopButton slug={agent.slug} running={run !== undefined} />
          {!run && !NOT_SPAWNABLE.has(agent.role) && !agent.retired && (
            <SpawnButton slug={agent.slug} defaultTask={agent.current_task_id} />
          )}
        </div>
      }
    >
      <p className="-mt-4 text-muted">
        <span className="font-mono">{agent.slug}</span> · {roleLabel(agent.role)}
        {agent.team && ` · ${roleLabel(agent.team)}`} · <AgentStatusBadge status={agent.status} />
        {agent.retired && ' · retired'}
      </p>
      {!NOT_SPAWNABLE.has(agent.role) && <RuntimeFacts agent={agent} />}
      {running.error && <ProblemNote error={running.error} prefix="Could not load the running agents" />}
      <TabLinks tabs={TABS} labels={{ overview: 'Overview', conversations: 'Conversations' }} current={tab} />
      {tab === 'overview' ? <Overview agent={agent} /> : <Conversations agent={agent.slug} />}
    </Page>
  );
}

function Overview({ agent }: { agent: Agent }) {
  const refetchInterval = usePollInterval(30_000);
  const runs = useAgentRuns(agent.id);
  const tasks = $api.useQuery(
    'get',
    '/api/tasks',
    { params: { query: { assigned_to: agent.id, limit: 10 } } },
    { refetchInterval },
  );
  const latestRun = runs.data?.runs[0]?.run_id ?? null;
  return (
    <>
      <Section title="Output" description="The latest run, live while the agent runs.">
        {runs.isPending ? (
          <Loading what="runs" />
        ) : (
          <LiveOutput agentId={agent.id} slug={agent.slug} runId={latestRun} />
        )}
      </Section>
      <div className="grid gap-6 xl:grid-cols-2">
        <Section title="Tasks" description="Its current task and the latest it owns.">
          {tasks.error && <ProblemNote error={tasks.error} prefix="Could not load the tasks" />}
          {tasks.isSuccess && tasks.data.tasks.length === 0 && (
            <EmptyState>No tasks yet: a PM assigns work, or the dispatcher hands it out.</EmptyState>
          )}
          <ul className="divide-y divide-border">
            {tasks.data?.tasks.map((task) => (
              <li key={task.id} className="flex items-center gap-2 py-1.5">
                <StateBadge status={task.status} />
                <Link
                  to={`/tasks/${task.id}`}
                  className="min-w-0 flex-1 truncate text-accent underline"
                  title={task.title}
                >
                  {task.title}
                </Link>
                {task.id === agent.current_task_id && <span className="text-xs font-semibold">current</span>}
                <ShortId id={task.id} />
              </li>
            ))}
          </ul>
        </Section>
        <Section title="Recent runs">
          {runs.error && <ProblemNote error={runs.error} prefix="Could not load the runs" />}
          {runs.isSuccess && runs.data.runs.length === 0 && <EmptyState>Never spawned yet.</EmptyState>}
          {runs.data && runs.data.runs.length > 0 && (
            <TableScroll label="Recent runs" bare>
              <table className="w-full text-left">
                <thead className="text-xs text-muted">
                  <tr>
                    <th scope="col" className="py-1 font-medium">
                      Run
                    </th>
                    <th scope="col" className="py-1 font-medium">
                      Status
                    </th>
                    <th scope="col" className="py-1 font-medium">
                      Task
                    </th>
                    <th scope="col" className="py-1 font-medium">
                      Started
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-border">
                  {runs.data.runs.map((r) => (
                    <tr key={r.run_id}>
                      <td className="py-1.5">
                        <ShortId id={r.run_id} />
                      </td>
                      <td className="py-1.5" title={r.detail ?? undefined}>
                        {r.status}
                      </td>
                      <td className="py-1.5">
                        {r.task_id ? (
                          <Link to={`/tasks/${r.task_id}`} className="text-accent underline">
                            <ShortId id={r.task_id} />
                          </Link>
                        ) : (
                          <span className="text-muted">—</span>
                        )}
                      </td>
                      <td className="py-1.5">
                        <RelativeTime at={r.started_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </Section>
      </div>
      <Section title="Profile">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted">Capabilities</dt>
          <dd>{agent.capabilities.length > 0 ? agent.capabilities.join(', ') : '—'}</dd>
          <dt className="text-muted">Description</dt>
          <dd className="whitespace-pre-wrap">{agent.description || '—'}</dd>
          <dt className="text-muted">Id</dt>
          <dd className="font-mono text-xs">{agent.id}</dd>
          <dt className="text-muted">Joined</dt>
          <dd>
            <RelativeTime at={agent.created_at} />
          </dd>
        </dl>
      </Section>
    </>
  );
}
