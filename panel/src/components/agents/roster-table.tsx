/** The roster as a table: who, role, team (cell), roster state, run state, current task. */
import { Link } from 'react-router';
import { ShortId } from '../ui/short-id';
import { TableScroll } from '../ui/table-scroll';
import { RelativeTime } from '../ui/time';
import { AgentStatusBadge, RunBadge } from './agent-badges';
import { type Agent, type RunningAgent, roleLabel } from './use-agents';

export function RosterTable({ agents, runs }: { agents: Agent[]; runs: Map<string, RunningAgent> }) {
  return (
    <TableScroll label="Roster">
      <table className="w-full text-left" data-testid="roster">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Agent
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Role
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Team
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              State
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Run
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Current task
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {agents.map((agent) => {
            const run = runs.get(agent.id);
            return (
              <tr key={agent.id} data-testid={`agent-row-${agent.slug}`}>
                <td className="px-3 py-2">
                  <Link to={`/agents/${agent.slug}`} className="font-medium text-accent underline">
                    {agent.name}
                  </Link>{' '}
                  <span className="font-mono text-xs text-muted">{agent.slug}</span>
                  {agent.retired && <span className="ml-1 text-xs text-muted">(retired)</span>}
                </td>
                <td className="px-3 py-2">{roleLabel(agent.role)}</td>
                <td className="px-3 py-2">
                  {agent.team ? roleLabel(agent.team) : <span className="text-muted">—</span>}
                </td>
                <td className="px-3 py-2">
                  <AgentStatusBadge status={agent.status} />
                </td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <RunBadge run={run} />
                  {run && (
                    <span className="ml-1.5 text-xs text-muted">
                      since <RelativeTime at={run.started_at} />
                    </span>
                  )}
                </td>
                <td className="px-3 py-2">
                  {agent.current_task_id ? (
                    <Link to={`/tasks/${agent.current_task_id}`} className="text-accent underline">
                      <ShortId id={agent.current_task_id} />
                    </Link>
                  ) : (
                    <span className="text-muted">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
