/**
 * Board-program cycle history, one engine at a time (CI-watch, dependency bot, release manager):
 * when each cycle ran, what started it, items examined, tasks opened (linked), skipped by a cap,
 * errors (with their messages) and the outcome. The engines sweep every opted-in project, so a
 * cycle covers more than this project.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { $api, queryKey } from '../../api/client';
import { usePollInterval } from '../../live/live';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { EmptyState, Loading, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { ShortId } from '../ui/short-id';
import { TableScroll } from '../ui/table-scroll';
import { RelativeTime } from '../ui/time';

const OUTCOME_LOOK: Record<string, string> = {
  completed: 'bg-ok-bg text-ok border-ok/30',
  running: 'bg-info-bg text-info border-info/30',
  failed: 'bg-danger-bg text-danger-text border-danger/30',
  aborted: 'bg-surface-2 text-muted border-border',
};

export function EngineCycles() {
  const programs = $api.useQuery('get', '/api/board-programs');
  const list = programs.data?.programs ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const key = chosen ?? list[0]?.key ?? null;
  const program = list.find((p) => p.key === key);

  return (
    <Section
      title="Engine cycles"
      description="Each board-program cycle of the engines: what it examined, opened, held back by a cap, and what went wrong. Cycles cover every opted-in project."
    >
      {programs.error && <ProblemNote error={programs.error} prefix="Could not load the board programs" />}
      {programs.isPending && <Loading what="engines" />}
      {list.length > 0 && (
        <fieldset className="mb-3 flex flex-wrap gap-2">
          <legend className="sr-only">Engine</legend>
          {list.map((p) => (
            <Button
              key={p.key}
              size="sm"
              variant={p.key === key ? 'primary' : 'secondary'}
              aria-pressed={p.key === key}
              onClick={() => setChosen(p.key)}
            >
              {p.title}
              <span className={p.key === key ? '' : 'text-muted'}>· {p.enabled ? 'on' : 'off'}</span>
            </Button>
          ))}
        </fieldset>
      )}
      {program && (
        <p className="mb-3 text-muted">
          {program.description}
          {!program.enabled && ' Off: switch its feature flag on in Settings (applies on the next restart).'}
          {program.held_by_pause && ` Held by ${program.held_by_pause}.`}
        </p>
      )}
      {program && <RunNow programKey={program.key} title={program.title} enabled={program.enabled} />}
      {key && <CycleTable programKey={key} enabled={program?.enabled ?? false} />}
    </Section>
  );
}

/** "Run a cycle now" (asks first: a cycle may open tasks); the refusal (paused, off, running) is shown here. */
function RunNow({ programKey, title, enabled }: { programKey: string; title: string; enabled: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const run = $api.useMutation('post', '/api/board-programs/{key}/run-now', {
    onSuccess: () => setConfirming(false),
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/board-programs/{key}/cycles') });
      queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/board-programs') });
    },
  });
  return (
    <div className="mb-3 space-y-2">
      <Button disabled={!enabled || run.isPending} onClick={() => setConfirming(true)}>
        {run.isPending ? 'Running a cycle…' : 'Run a cycle now'}
      </Button>
      {run.error && !confirming && <ProblemNote error={run.error} prefix="The cycle did not run" />}
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Run ${title} now?`}
        description="One cycle runs at once, over every opted-in project; it may open tasks, as on its interval."
      >
        {run.error && <ProblemNote error={run.error} />}
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button
            variant="primary"
            disabled={run.isPending}
            onClick={() => run.mutate({ params: { path: { key: programKey } } })}
          >
            {run.isPending ? 'Running…' : 'Yes, run a cycle'}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

function CycleTable({ programKey, enabled }: { programKey: string; enabled: boolean }) {
  const refetchInterval = usePollInterval(30_000);
  const cycles = $api.useQuery(
    'get',
    '/api/board-programs/{key}/cycles',
    { params: { path: { key: programKey }, query: { limit: 20 } } },
    { refetchInterval },
  );
  if (cycles.error) return <ProblemNote error={cycles.error} prefix="Could not load the cycles" />;
  if (cycles.isPending) return <Loading what="cycles" />;
  const rows = cycles.data.cycles;
  if (rows.length === 0)
    return (
      <EmptyState>
        {enabled
          ? 'No cycles yet: the first runs on the engine’s interval, or now with “Run a cycle now”.'
          : 'No cycles: the engine is off. Switch its flag on in Settings; it applies on the next restart.'}
      </EmptyState>
    );
  return (
    <TableScroll label="Engine cycles" bare>
      <table
        className="w-full text-left"
        aria-label="Cycles, newest first"
        data-testid={`cycles-${programKey}`}
      >
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th className="px-2 py-2 font-medium">Started</th>
            <th className="px-2 py-2 font-medium">Trigger</th>
            <th className="px-2 py-2 text-right font-medium">Examined</th>
            <th className="px-2 py-2 text-right font-medium">Opened</th>
            <th className="px-2 py-2 text-right font-medium">Skipped by cap</th>
            <th className="px-2 py-2 text-right font-medium">Errors</th>
            <th className="px-2 py-2 font-medium">Outcome</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((cycle) => (
            <tr key={cycle.id} className="align-top">
              <td className="px-2 py-2 whitespace-nowrap">
                <RelativeTime at={cycle.opened_at} />
              </td>
              <td className="px-2 py-2">{cycle.trigger === 'run_now' ? 'run now' : 'interval'}</td>
              <td className="px-2 py-2 text-right tabular-nums">{cycle.items_examined}</td>
              <td className="px-2 py-2 text-right tabular-nums">
                {cycle.tasks_opened}
                {cycle.opened_task_ids.length > 0 && (
                  <span className="block">
                    {cycle.opened_task_ids.map((id) => (
                      <Link key={id} to={`/tasks/${id}`} className="ml-2 text-accent underline">
                        <ShortId id={id} />
                      </Link>
                    ))}
                  </span>
                )}
              </td>
              <td className="px-2 py-2 text-right tabular-nums">{cycle.skipped_by_cap}</td>
              <td className="px-2 py-2 text-right tabular-nums">
                {cycle.errors}
                {cycle.error_messages.length > 0 && (
                  <ul className="mt-1 max-w-[360px] text-left text-xs text-danger">
                    {cycle.error_messages.map((message) => (
                      <li key={message} className="break-words">
                        {message}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="px-2 py-2">
                <span
                  className={`inline-block rounded border px-1.5 py-0.5 text-xs font-medium ${OUTCOME_LOOK[cycle.outcome] ?? ''}`}
                >
                  {cycle.outcome}
                </span>
                {cycle.outcome_detail && (
                  <p className="mt-1 text-xs text-muted break-words">{cycle.outcome_detail}</p>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
