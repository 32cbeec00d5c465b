/**
 * Usage (`/usage`): what the company's agents cost — totals for 24 h / 7 d / 30 d (`?period=`) with
 * the trend against the period before, tokens and cost over time, the split by agent, team or model
 * (`?tab=`), and this month's spend against the cap. Live from USAGE_SNAPSHOT on /ws/system;
 * polled while the socket is down.
 */
import { ChoiceButtons } from '../components/ui/choice-buttons';
import { Loading, Page, Section } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { TabLinks, useTab } from '../components/ui/tabs';
import { BreakdownTable } from '../components/usage/breakdown-table';
import { ProjectionCard } from '../components/usage/projection-card';
import { SummaryCards } from '../components/usage/summary-cards';
import { UsageChart } from '../components/usage/usage-chart';
import {
  BREAKDOWNS,
  type BreakdownKind,
  PERIODS,
  usePeriod,
  useUsageBreakdown,
  useUsageProjection,
  useUsageSeries,
  useUsageSummary,
} from '../components/usage/use-usage';

const BREAKDOWN_LABELS: Record<BreakdownKind, string> = {
  'by-agent': 'By agent',
  'by-team': 'By team',
  'by-model': 'By model',
};
const BREAKDOWN_COLUMN: Record<BreakdownKind, string> = {
  'by-agent': 'Agent',
  'by-team': 'Team',
  'by-model': 'Model',
};

export default function UsagePage() {
  const [period, setPeriod] = usePeriod();
  const summary = useUsageSummary(period);
  const series = useUsageSeries(period);
  const tab = useTab(BREAKDOWNS);
  const breakdown = useUsageBreakdown(tab, period);
  const projection = useUsageProjection();
  const periodLabel = PERIODS.find((p) => p.value === period)!.label.toLowerCase();

  return (
    <Page
      title="Usage"
      actions={<ChoiceButtons legend="Period" options={PERIODS} value={period} onChange={setPeriod} />}
    >
      {summary.error && <ProblemNote error={summary.error} prefix="Could not load the usage totals" />}
      {summary.isPending && <Loading what="usage" />}
      {summary.data && <SummaryCards summary={summary.data} />}
      {summary.data?.calls === 0 && (
        <p className="text-muted" data-testid="usage-empty">
          No model calls in the {periodLabel}. Usage is recorded as agents work: from the agent CLIs' usage
          lines, from the model providers, and from agents that report their own.
        </p>
      )}

      <Section title="Over time" description={`Tokens and cost, ${periodLabel}.`}>
        {series.error && <ProblemNote error={series.error} prefix="Could not load the usage over time" />}
        {series.isPending && <Loading what="the chart" />}
        {series.data && <UsageChart series={series.data} />}
      </Section>

      <Section title="Where it went" description={`The ${periodLabel}, most expensive first.`}>
        <div className="space-y-3">
          <TabLinks tabs={BREAKDOWNS} labels={BREAKDOWN_LABELS} current={tab} />
          {breakdown.error && <ProblemNote error={breakdown.error} prefix="Could not load the breakdown" />}
          {breakdown.isPending && <Loading what="the breakdown" />}
          {breakdown.data && (
            <BreakdownTable
              breakdown={breakdown.data}
              what={BREAKDOWN_COLUMN[tab]}
              agents={tab === 'by-agent'}
            />
          )}
        </div>
      </Section>

      <Section title="This month" description="Month to date (UTC), projected from the last 7 days.">
        {projection.error && <ProblemNote error={projection.error} prefix="Could not load the projection" />}
        {projection.isPending && <Loading what="the projection" />}
        {projection.data && <ProjectionCard projection={projection.data} />}
      </Section>
    </Page>
  );
}
