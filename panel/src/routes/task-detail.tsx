/**
 * Task (`/tasks/:id`): the header (state, title, id, project, assignee, the CEO's actions), then
 * tabs kept in the query string (`?tab=history`): Overview · Changes · History · Findings ·
 * Collisions · Work session · Transcript. `/tasks/:id/changes` opens it on Changes (the review).
 * Live: task events refetch what is on screen.
 */
import { Tabs } from 'radix-ui';
import { useMatch, useNavigate, useParams, useSearchParams } from 'react-router';
import { ChangesTab } from '../components/tasks/changes/changes-tab';
import { CollisionsTab } from '../components/tasks/detail/collisions-tab';
import { FindingsTab } from '../components/tasks/detail/findings-tab';
import { HistoryTab } from '../components/tasks/detail/history-tab';
import { OverviewTab } from '../components/tasks/detail/overview-tab';
import { ReviewBar } from '../components/tasks/detail/task-actions';
import { TaskHeader } from '../components/tasks/detail/task-header';
import { TranscriptTab } from '../components/tasks/detail/transcript-tab';
import { useTask } from '../components/tasks/detail/use-task';
import { WorkSessionTab } from '../components/tasks/detail/work-session-tab';
import { useLookups } from '../components/tasks/lookups';
import { Loading } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { TAB, TAB_BAR } from '../components/ui/tabs';

const TABS = [
  ['overview', 'Overview'],
  ['changes', 'Changes'],
  ['history', 'History'],
  ['findings', 'Findings'],
  ['collisions', 'Collisions'],
  ['work', 'Work session'],
  ['transcript', 'Transcript'],
] as const;
type Tab = (typeof TABS)[number][0];

export default function TaskDetailPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const onChanges = useMatch('/tasks/:id/changes') !== null;
  const asked = onChanges ? 'changes' : params.get('tab');
  const tab: Tab = TABS.some(([t]) => t === asked) ? (asked as Tab) : 'overview';
  const openTab = (value: string) =>
    navigate(
      value === 'changes'
        ? `/tasks/${id}/changes`
        : `/tasks/${id}${value === 'overview' ? '' : `?tab=${value}`}`,
      { replace: true },
    );
  const task = useTask(id);
  const lookups = useLookups();

  if (task.error)
    return (
      <div className="px-6 py-5">
        <h1 className="mb-3 text-[22px] font-semibold">Task</h1>
        <ProblemNote error={task.error} prefix="Could not load the task" />
      </div>
    );
  if (!task.data)
    return (
      <div className="px-6 py-5">
        <Loading what="the task" />
      </div>
    );
  const t = task.data;

  return (
    <div className="min-w-0 space-y-4 px-4 pt-5 sm:px-6">
      <TaskHeader task={t} lookups={lookups} reviewInBar={tab === 'changes'} />
      <Tabs.Root value={tab} onValueChange={openTab}>
        <Tabs.List aria-label="Task views" className={TAB_BAR}>
          {TABS.map(([value, label]) => (
            <Tabs.Trigger key={value} value={value} className={TAB}>
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <div className="pt-4">
          <Tabs.Content value="overview">
            <OverviewTab task={t} lookups={lookups} />
          </Tabs.Content>
          <Tabs.Content value="changes">
            <ChangesTab taskId={t.id} />
          </Tabs.Content>
          <Tabs.Content value="history">
            <HistoryTab taskId={t.id} lookups={lookups} />
          </Tabs.Content>
          <Tabs.Content value="findings">
            <FindingsTab taskId={t.id} />
          </Tabs.Content>
          <Tabs.Content value="collisions">
            <CollisionsTab taskId={t.id} />
          </Tabs.Content>
          <Tabs.Content value="work">
            <WorkSessionTab task={t} lookups={lookups} />
          </Tabs.Content>
          <Tabs.Content value="transcript">
            <TranscriptTab task={t} lookups={lookups} />
          </Tabs.Content>
        </div>
      </Tabs.Root>
      {tab === 'changes' ? <ReviewBar task={t} /> : <div className="pb-5" />}
    </div>
  );
}
