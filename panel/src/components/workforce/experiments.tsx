/**
 * The Workforce page's experiments: each one's two arms side by side (route, share, tasks, first-pass
 * QA with its interval, cost per accepted task, failures on start) with the server's verdict — a
 * better arm only where the intervals separate, else "no difference yet" — and the CEO's actions:
 * stop a running one, adopt an arm of an ended one (its provider and model become the role's route).
 * The experiment's record stays on the page after that.
 */
import { useQueryClient } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { $api, type paths, queryKey } from '../../api/client';
import { formatUsd } from '../../lib/format';
import { Button } from '../ui/button';
import { EmptyState, Loading, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { RelativeTime } from '../ui/time';
import { IntervalBar } from './interval-bar';
import { StartExperimentDialog } from './start-experiment';

export type Experiment =
  paths['/api/workforce/experiments']['get']['responses'][200]['content']['application/json']['experiments'][number];
type Arm = 'a' | 'b';
type ArmView = Experiment['arms'][Arm];

const ENDED: Record<NonNullable<Experiment['ended_reason']>, string> = {
  task_count: 'its tasks all ended',
  cost_cap: 'reached its cost cap',
  start_failures: 'an arm failed on start',
  stopped: 'stopped by the CEO',
};

/** What an arm runs, for people: "codex · lab · gpt-5", or the usual route's words. */
export const routeWords = (arm: Pick<ArmView, 'cli' | 'provider' | 'model'>) =>
  [arm.cli, arm.provider, arm.model].filter(Boolean).join(' · ') || 'the usual route';

const refresh = (queryClient: ReturnType<typeof useQueryClient>) =>
  queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/workforce/experiments') });

export function Experiments() {
  const experiments = $api.useQuery('get', '/api/workforce/experiments');
  const [starting, setStarting] = useState(false);
  const list = experiments.data?.experiments ?? [];
  const running = new Set(list.filter((e) => e.status === 'running').map((e) => e.role));
  return (
    <Section
      title="Experiments"
      description="Split one role’s work between two routes — a CLI, a provider, a model — and see which delivers. A verdict appears only where the numbers support it."
    >
      <div className="space-y-3">
        <div className="flex justify-end">
          <Button size="sm" onClick={() => setStarting(true)} data-testid="experiment-start">
            <FlaskConical size={14} aria-hidden />
            Start an experiment
          </Button>
        </div>
        {experiments.error && (
          <ProblemNote error={experiments.error} prefix="Could not load the experiments" />
        )}
        {experiments.isPending && <Loading what="the experiments" />}
        {experiments.data && list.length === 0 && (
          <EmptyState>
            <span data-testid="experiments-empty">
              No experiment yet. Start one to send a share of a role’s tasks to another CLI or model; each
              task keeps the route it was given, and the arms are compared on the same measures as the table
              above.
            </span>
          </EmptyState>
        )}
        {list.map((experiment) => (
          <ExperimentCard key={experiment.id} experiment={experiment} />
        ))}
      </div>
      <StartExperimentDialog open={starting} onOpenChange={setStarting} busyRoles={running} />
    </Section>
  );
}

function ExperimentCard({ experiment }: { experiment: Experiment }) {
  const queryClient = useQueryClient();
  const params = { params: { path: { id: experiment.id } } };
  const stop = $api.useMutation('post', '/api/workforce/experiments/{id}/stop', {
    onSuccess: () => toast.success(`The ${experiment.role} experiment is stopped`),
    onSettled: () => refresh(queryClient),
  });
  const adopt = $api.useMutation('post', '/api/workforce/experiments/{id}/adopt', {
    onSuccess: (done) => {
      toast.success(`The ${done.role} role now runs arm ${done.adopted_arm?.toUpperCase()}’s route`);
      void queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/providers/routing') });
    },
    onSettled: () => refresh(queryClient),
  });
  const role = experiment.role.replaceAll('_', ' ');
  const ended = experiment.status === 'ended';
  return (
    <article
      aria-label={`Experiment on the ${role} role`}
      className="min-w-0 rounded-md border border-border p-3"
      data-testid="experiment"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold capitalize">{role}</h3>
        <p className="text-muted" data-testid="experiment-status">
          {ended ? (
            <>
              Ended <RelativeTime at={experiment.ended_at!} />: {ENDED[experiment.ended_reason ?? 'stopped']}
            </>
          ) : (
            <>
              Running since <RelativeTime at={experiment.started_at} />, up to {experiment.max_tasks} tasks
              {experiment.cost_cap_usd !== null && ` or ${formatUsd(experiment.cost_cap_usd)}`}
            </>
          )}
        </p>
      </header>
      <p className="mt-2 font-medium" data-testid="experiment-verdict">
        {experiment.verdict.text}
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {(['a', 'b'] as const).map((arm) => (
          <ArmPanel key={arm} arm={arm} experiment={experiment} />
        ))}
      </div>
      <ProblemNote error={stop.error ?? adopt.error} />
      <div className="mt-3 flex flex-wrap items-center gap-2">
        {!ended && (
          <Button size="sm" onClick={() => stop.mutate(params)} disabled={stop.isPending}>
            Stop
          </Button>
        )}
        {ended &&
          experiment.adopted_arm === null &&
          (['a', 'b'] as const).map((arm) => (
            <Button
              key={arm}
              size="sm"
              variant={experiment.verdict.better === arm ? 'primary' : 'secondary'}
              onClick={() => adopt.mutate({ ...params, body: { arm } })}
              disabled={adopt.isPending}
              data-testid={`experiment-adopt-${arm}`}
            >
              Adopt {arm.toUpperCase()}
            </Button>
          ))}
        {experiment.adopted_arm && (
          <p className="text-muted" data-testid="experiment-adopted">
            Arm {experiment.adopted_arm.toUpperCase()} adopted <RelativeTime at={experiment.adopted_at!} />:
            the {role} role runs its route.
          </p>
        )}
      </div>
    </article>
  );
}

function ArmPanel({ arm, experiment }: { arm: Arm; experiment: Experiment }) {
  const view = experiment.arms[arm];
  const better = experiment.verdict.better === arm;
  const stopped = experiment.stopped_arm === arm;
  return (
    <section
      aria-label={`Arm ${arm.toUpperCase()}`}
      className={`min-w-0 rounded-md border p-3 ${better ? 'border-accent' : 'border-border'}`}
      data-testid={`experiment-arm-${arm}`}
    >
      <h4 className="flex flex-wrap items-baseline gap-x-2 font-medium">
        <span>
          Arm {arm.toUpperCase()} · {view.share} %
        </span>
        <span className="min-w-0 break-all font-mono text-xs text-muted">{routeWords(view)}</span>
      </h4>
      {stopped && <p className="mt-1 text-danger-text">Stopped: its runs failed on start.</p>}
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted">Tasks</dt>
        <dd>
          {view.tasks} given, {view.ended} ended
        </dd>
        <dt className="text-muted">First-pass QA</dt>
        <dd>{view.first_pass_qa ? <IntervalBar interval={view.first_pass_qa} /> : '—'}</dd>
        <dt className="text-muted">Per accepted task</dt>
        <dd>{view.cost_per_accepted_task === null ? '—' : formatUsd(view.cost_per_accepted_task)}</dd>
        <dt className="text-muted">Failed on start</dt>
        <dd>{view.failure_on_start ? <IntervalBar interval={view.failure_on_start} /> : '—'}</dd>
      </dl>
    </section>
  );
}
