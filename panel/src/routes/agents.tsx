/**
 * Agents (`/agents`): the roster as a table with live state — role, team, roster state, whether a
 * process runs, current task — filtered by role, team and run state in the URL; and the
 * agent-to-agent conversations, live (`?tab=conversations`).
 */
import { useSearchParams } from 'react-router';
import { Conversations } from '../components/a2a/conversations';
import { RosterTable } from '../components/agents/roster-table';
import { RUNS_REFRESH_MS, roleLabel, runState, useRoster } from '../components/agents/use-agents';
import { EmptyState, Loading, Page } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { SelectFilter } from '../components/ui/select-filter';
import { TabLinks, useTab } from '../components/ui/tabs';

const TABS = ['roster', 'conversations'] as const;
const RUN_OPTIONS = ['running', 'waiting', 'not running'].map((v) => ({ value: v, label: v }));

export default function AgentsPage() {
  const tab = useTab(TABS);
  return (
    <Page title="Agents">
      <TabLinks tabs={TABS} labels={{ roster: 'Roster', conversations: 'Conversations' }} current={tab} />
      {tab === 'roster' ? <Roster /> : <Conversations />}
    </Page>
  );
}

function Roster() {
  const { roster, running, agents, runs } = useRoster();
  const [search] = useSearchParams();
  const role = search.get('role');
  const team = search.get('team');
  const run = search.get('run');
  const shown = agents.filter(
    (a) =>
      (!role || a.role === role) && (!team || a.team === team) && (!run || runState(runs.get(a.id)) === run),
  );
  const distinct = (values: (string | null)[]) =>
    [...new Set(values.filter((v): v is string => v !== null))]
      .sort()
      .map((v) => ({ value: v, label: roleLabel(v) }));

  return (
    <>
      <div className="flex flex-wrap items-center gap-4">
        <SelectFilter param="role" label="Role" options={distinct(agents.map((a) => a.role))} />
        <SelectFilter param="team" label="Team" options={distinct(agents.map((a) => a.team))} />
        <SelectFilter param="run" label="Run" options={RUN_OPTIONS} />
        <p className="ml-auto text-xs text-muted">
          {agents.length > 0 && `${shown.length} of ${agents.length} agents · `}
          States update with task events; runs are checked every {RUNS_REFRESH_MS / 1000} s.
        </p>
      </div>
      {roster.error && <ProblemNote error={roster.error} prefix="Could not load the roster" />}
      {running.error && <ProblemNote error={running.error} prefix="Could not load the running agents" />}
      {roster.isPending && <Loading what="the roster" />}
      {roster.isSuccess && agents.length === 0 && (
        <EmptyState>No agents yet. Add one with POST /api/agents, or start the demo company.</EmptyState>
      )}
      {agents.length > 0 && shown.length === 0 && <EmptyState>No agent matches these filters.</EmptyState>}
      {shown.length > 0 && <RosterTable agents={shown} runs={runs} />}
    </>
  );
}
