/**
 * Workforce (`/workforce`): who delivers and what it costs — the scorecards of the tasks that ended
 * in the last 7, 30 or 90 days, grouped by role, CLI, model, agent or project (`?period=`, `?by=`,
 * filtered by `?role=` and `?project=`), sortable, each figure a link to the tasks it counts
 * (`?measure=…&group=…`, listed below the table), a role or a project a link to its agents, and the
 * table as shown downloadable as CSV. Rates appear from the server's sample size on (10 tasks), with
 * their 95 % Wilson interval; below it a group says "not enough data". Below the scorecards, the
 * experiments that split a role's work between two routes (components/workforce/experiments.tsx).
 */
import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../components/ui/button';
import { ChoiceButtons } from '../components/ui/choice-buttons';
import { EmptyState, Loading, Page, Section } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { SelectFilter } from '../components/ui/select-filter';
import { DrillTasks } from '../components/workforce/drill-tasks';
import { Experiments } from '../components/workforce/experiments';
import {
  GROUPINGS,
  groupLabel,
  type Scorecard,
  scorecardsCsv,
  sortRows,
} from '../components/workforce/format';
import { type ScorecardRow, Scorecards } from '../components/workforce/scorecard-table';
import {
  GROUPING_LABELS,
  type Measure,
  PERIODS,
  useNames,
  useScorecards,
  useWorkforceParams,
} from '../components/workforce/use-workforce';

export default function WorkforcePage() {
  const params = useWorkforceParams();
  const { filters, sort, direction, drill } = params;
  const [search] = useSearchParams();
  const scorecards = useScorecards(filters);
  const { names, roles, projects } = useNames();
  const periodLabel = PERIODS.find((p) => p.value === filters.period)!.label.toLowerCase();

  const rows: ScorecardRow[] = useMemo(() => {
    const groups = (scorecards.data?.groups ?? []).map((group) => ({
      ...group,
      label: groupLabel(filters.by, group.key, names),
    }));
    return sortRows(groups, sort, direction, (row) => row.label);
  }, [scorecards.data, filters.by, names, sort, direction]);
  const minSample = scorecards.data?.min_sample ?? 10;

  /** This page's address with some parameters changed (null removes one). */
  const hrefWith = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) next.delete(name);
      else next.set(name, value);
    }
    return `?${next}`;
  };
  const drillHref = (measure: Measure, key: string | null) => hrefWith({ measure, group: key ?? '' });
  const agentsHref = (key: string) =>
    filters.by === 'role'
      ? hrefWith({ by: 'agent', role: key, measure: null, group: null })
      : filters.by === 'project'
        ? hrefWith({ by: 'agent', project: key, measure: null, group: null })
        : null;
  const agentSlug = (id: string) => names.agents.get(id);

  const download = () => {
    const csv = scorecardsCsv(rows, (row: Scorecard) => groupLabel(filters.by, row.key, names));
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `workforce-by-${filters.by}-${filters.period}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const roleOptions = [...new Set([...roles, ...(filters.role ? [filters.role] : [])])]
    .sort()
    .map((role) => ({ value: role, label: role.replaceAll('_', ' ') }));
  const projectOptions = projects.map((project) => ({ value: project.id, label: project.name }));
  const projectName = filters.projectId ? (names.projects.get(filters.projectId) ?? 'this project') : null;
  const narrowed = [
    filters.role && `of the ${filters.role.replaceAll('_', ' ')} role`,
    projectName && `in ${projectName}`,
  ].filter(Boolean);
  const drilled = drill ? rows.find((row) => row.key === drill.key) : undefined;
  const thin = rows.filter((row) => !row.enough).length;

  return (
    <Page
      title="Workforce"
      actions={
        <ChoiceButtons legend="Period" options={PERIODS} value={filters.period} onChange={params.setPeriod} />
      }
    >
      <p className="max-w-3xl text-muted">
        Which roles, agent CLIs and models deliver, and what an accepted task costs: the tasks that ended
        (merged, accepted or cancelled) in the {periodLabel}, grouped by who did their own work. Rates appear
        from {minSample} tasks on, with their 95 % interval; every figure lists its tasks.
      </p>

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="workforce-filters">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-muted" aria-hidden>
            Group by
          </span>
          <ChoiceButtons
            legend="Group by"
            options={GROUPINGS.map((value) => ({ value, label: GROUPING_LABELS[value] }))}
            value={filters.by}
            onChange={params.setBy}
          />
        </div>
        <SelectFilter param="role" label="Role" options={roleOptions} allLabel="Every role" />
        <SelectFilter param="project" label="Project" options={projectOptions} allLabel="Every project" />
      </div>

      <Section
        title={`By ${GROUPING_LABELS[filters.by].toLowerCase()}`}
        description={
          narrowed.length > 0
            ? `Tasks ${narrowed.join(' ')}, ${periodLabel}.`
            : `Every task that ended, ${periodLabel}.`
        }
      >
        <div className="space-y-3">
          {scorecards.error && (
            <ProblemNote error={scorecards.error} prefix="Could not load the scorecards" />
          )}
          {scorecards.isPending && <Loading what="the scorecards" />}
          {scorecards.data && rows.length === 0 && (
            <EmptyState>
              <span data-testid="workforce-empty">
                No task {narrowed.length > 0 ? `${narrowed.join(' ')} ` : ''}ended in the {periodLabel}:
                scorecards count tasks that were merged, accepted or cancelled.{' '}
                {narrowed.length > 0
                  ? 'Clear the role or project filter, or choose a longer period.'
                  : 'They fill in as agents finish work; a longer period may already have some.'}
              </span>
            </EmptyState>
          )}
          {rows.length > 0 && (
            <>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="min-w-0 text-muted" data-testid="workforce-sample-note">
                  {thin === 0
                    ? `Every group has ${minSample} tasks or more.`
                    : thin === rows.length
                      ? `Every group has fewer than ${minSample} tasks: counts, times and costs, but no rates yet.`
                      : `${thin} of ${rows.length} groups have fewer than ${minSample} tasks: no rates for those.`}
                </p>
                <Button size="sm" onClick={download} data-testid="workforce-csv">
                  <Download size={14} aria-hidden />
                  Download CSV
                </Button>
              </div>
              <Scorecards
                rows={rows}
                by={filters.by}
                minSample={minSample}
                sort={sort}
                direction={direction}
                onSort={params.sortBy}
                onSortTo={params.sortTo}
                drillHref={drillHref}
                agentsHref={agentsHref}
                agentSlug={agentSlug}
              />
            </>
          )}
        </div>
      </Section>

      {drill && (
        <DrillTasks
          filters={filters}
          drill={drill}
          groupLabel={drilled?.label ?? groupLabel(filters.by, drill.key, names)}
          agentSlug={agentSlug}
          onClose={params.closeDrill}
        />
      )}

      <Experiments />
    </Page>
  );
}
