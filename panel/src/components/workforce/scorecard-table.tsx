/**
 * The scorecards, one group each: its tasks, first-pass QA and failure on start with their
 * intervals, rework rounds, findings per task, claim → end, and the cost per merged root task and
 * per accepted subtask. From `md` up a table whose column headers order the rows (`aria-sort` says
 * how; the group column stays put while the table scrolls sideways); below it one card a group with
 * a "Sort by" select (docs/panel.md, "On a phone"). Every count and rate links to the tasks it
 * counts; a role or a project links to its agents; a group below the sample size says so instead of
 * showing rates.
 */
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../ui/button';
import { TableScroll } from '../ui/table-scroll';
import {
  type Direction,
  firstDirection,
  type Grouping,
  humanDuration,
  notEnough,
  type Scorecard,
  SORTS,
  type SortKey,
  usdOrDash,
} from './format';
import { IntervalBar } from './interval-bar';
import type { Measure } from './use-workforce';

const CELL = 'px-3 py-2 align-top';
const NUMBER = `${CELL} text-right whitespace-nowrap`;
const LINK = 'text-accent underline decoration-accent/40 underline-offset-2 hover:decoration-accent';
/** The group column stays in view while the table scrolls sideways. */
const STICKY = 'sticky left-0 z-10 bg-surface';

export interface ScorecardRow extends Scorecard {
  label: string;
}

interface Props {
  rows: readonly ScorecardRow[];
  by: Grouping;
  minSample: number;
  sort: SortKey;
  direction: Direction;
  /** A header's click: that column, or the other way round if it is the one in force. */
  onSort: (key: SortKey) => void;
  /** An order chosen outright (the cards' select and direction). */
  onSortTo: (key: SortKey, direction: Direction) => void;
  /** The page with the tasks behind one figure of one group listed. */
  drillHref: (measure: Measure, key: string | null) => string;
  /** The page with the agents of a role or project group (null: none for this grouping). */
  agentsHref: (key: string) => string | null;
  /** An agent's slug for its page (by agent). */
  agentSlug: (key: string) => string | undefined;
}

/** Each sortable column's name, in one line (cards, the sort select) and as the header draws it. */
const COLUMNS: Record<Exclude<SortKey, 'group'>, { name: string; header: ReactNode; right?: boolean }> = {
  tasks: { name: 'Tasks', header: 'Tasks', right: true },
  first_pass_qa: { name: 'First-pass QA', header: 'First-pass QA' },
  rework: { name: 'Rework rounds', header: <Lines top="Rework" bottom="rounds" />, right: true },
  findings: {
    name: 'Findings / task',
    header: <Lines top="Findings / task" bottom="blocker · major · minor · nit" />,
  },
  claim_to_end: { name: 'Claim → end', header: <Lines top="Claim → end" bottom="p50 / p90" /> },
  cost_per_merged_root: {
    name: 'Cost per merged root',
    header: <Lines top="Cost per" bottom="merged root" />,
    right: true,
  },
  cost_per_accepted_subtask: {
    name: 'Cost per accepted subtask',
    header: <Lines top="Cost per" bottom="accepted subtask" />,
    right: true,
  },
  failure_on_start: { name: 'Failure on start', header: <Lines top="Failure" bottom="on start" /> },
};

const groupName = (by: Grouping) => (by === 'cli' ? 'CLI' : by.charAt(0).toUpperCase() + by.slice(1));

export function Scorecards(props: Props) {
  return (
    <>
      <ScorecardCards {...props} />
      <div className="hidden md:block">
        <ScorecardTable {...props} />
      </div>
    </>
  );
}

function ScorecardTable({
  rows,
  by,
  minSample,
  sort,
  direction,
  onSort,
  drillHref,
  agentsHref,
  agentSlug,
}: Props) {
  const header = (key: SortKey, label: ReactNode, right = false, extra = '') => (
    <SortHeader
      key={key}
      sortKey={key}
      label={label}
      right={right}
      active={sort === key}
      direction={direction}
      onSort={onSort}
      className={extra}
    />
  );
  return (
    <TableScroll label="Scorecards" bare>
      <table className="w-full text-left" data-testid="scorecards">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            {header('group', groupName(by), false, STICKY)}
            {(Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).map((key) =>
              header(key, COLUMNS[key].header, COLUMNS[key].right),
            )}
          </tr>
        </thead>
        {/* Rules between rows on the cells, not the rows: the sticky column's background would hide a row's. */}
        <tbody className="tabular-nums [&>tr+tr>*]:border-t [&>tr+tr>*]:border-border">
          {rows.map((row) => {
            const f = figures(row, minSample, drillHref);
            return (
              <tr key={row.key ?? '\u0000none'} data-testid={`scorecard-${row.key ?? 'none'}`}>
                <th scope="row" className={`${CELL} ${STICKY} min-w-28 font-medium`}>
                  <GroupName row={row} by={by} agentSlug={agentSlug} agentsHref={agentsHref} />
                </th>
                <td className={NUMBER}>{f.tasks}</td>
                {row.enough ? (
                  <>
                    <td className={`${CELL} whitespace-nowrap`}>{f.first_pass_qa}</td>
                    <td className={NUMBER}>{f.rework}</td>
                    <td className={`${CELL} whitespace-nowrap`}>{f.findings}</td>
                  </>
                ) : (
                  <td colSpan={3} className={`${CELL} text-muted italic`} data-testid="thin-data">
                    {notEnough(row.tasks, minSample)}
                  </td>
                )}
                <td className={`${CELL} whitespace-nowrap`}>{f.claim_to_end}</td>
                <td className={NUMBER}>{f.cost_per_merged_root}</td>
                <td className={NUMBER}>{f.cost_per_accepted_subtask}</td>
                <td className={`${CELL} min-w-36`}>{f.failure_on_start}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The phone's scorecards: a card a group, its figures named, and the order chosen above them. */
function ScorecardCards({
  rows,
  by,
  minSample,
  sort,
  direction,
  onSortTo,
  drillHref,
  agentsHref,
  agentSlug,
}: Props) {
  const sortName = (key: SortKey) => (key === 'group' ? groupName(by) : COLUMNS[key].name);
  const ways =
    sort === 'group' ? { asc: 'A to Z', desc: 'Z to A' } : { asc: 'lowest first', desc: 'highest first' };
  return (
    <div className="space-y-2 md:hidden">
      <div className="flex flex-wrap items-center gap-2">
        <label className="inline-flex items-center gap-1.5 text-muted">
          Sort by
          <select
            value={sort}
            onChange={(event) => {
              const key = event.target.value as SortKey;
              onSortTo(key, firstDirection(key));
            }}
            className="h-7 max-w-36 rounded-md border border-border bg-surface px-1.5 text-[13px] text-text"
          >
            {SORTS.map((key) => (
              <option key={key} value={key}>
                {sortName(key)}
              </option>
            ))}
          </select>
        </label>
        <Button size="sm" onClick={() => onSortTo(sort, direction === 'asc' ? 'desc' : 'asc')}>
          {direction === 'asc' ? <ArrowUp size={14} aria-hidden /> : <ArrowDown size={14} aria-hidden />}
          {ways[direction]}
        </Button>
      </div>
      <ul
        className="divide-y divide-border rounded-lg border border-border tabular-nums"
        data-testid="scorecard-cards"
      >
        {rows.map((row) => {
          const f = figures(row, minSample, drillHref);
          const item = (name: string, value: ReactNode) => (
            <div className="min-w-0">
              <dt className="text-xs text-muted">{name}</dt>
              <dd className="break-words">{value}</dd>
            </div>
          );
          return (
            <li
              key={row.key ?? '\u0000none'}
              className="space-y-2 px-3 py-2.5"
              data-testid={`scorecard-card-${row.key ?? 'none'}`}
            >
              <div className="flex items-start justify-between gap-3">
                <span className="min-w-0 font-medium">
                  <GroupName row={row} by={by} agentSlug={agentSlug} agentsHref={agentsHref} />
                </span>
                <span className="shrink-0 text-muted">
                  {f.tasks} {row.tasks === 1 ? 'task' : 'tasks'}
                </span>
              </div>
              {!row.enough && <p className="text-muted italic">{notEnough(row.tasks, minSample)}</p>}
              <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
                {row.enough && (
                  <>
                    {item('First-pass QA', f.first_pass_qa)}
                    {item('Rework rounds', f.rework)}
                    {item('Findings per task: blocker · major · minor · nit', f.findings)}
                  </>
                )}
                {item('Claim → end, p50 / p90', f.claim_to_end)}
                {item('Cost per merged root', f.cost_per_merged_root)}
                {item('Cost per accepted subtask', f.cost_per_accepted_subtask)}
                {item('Failure on start', f.failure_on_start)}
              </dl>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A group's figures as the table and the cards show them, each linked to the tasks it counts. */
function figures(
  row: ScorecardRow,
  minSample: number,
  drillHref: (measure: Measure, key: string | null) => string,
): Record<Exclude<SortKey, 'group'>, ReactNode> {
  const findings = row.findings_per_task;
  return {
    tasks: (
      <FigureLink
        href={drillHref('tasks', row.key)}
        context={`tasks of ${row.label}`}
        testId="scorecard-tasks"
      >
        {row.tasks}
      </FigureLink>
    ),
    first_pass_qa: row.first_pass_qa ? (
      <FigureLink
        href={drillHref('first_pass_qa', row.key)}
        context={`first-pass QA of ${row.label}`}
        testId="scorecard-first-pass-qa"
      >
        <IntervalBar interval={row.first_pass_qa} />
      </FigureLink>
    ) : (
      <span className="text-muted">none reached QA</span>
    ),
    rework: (
      <FigureLink href={drillHref('reworked', row.key)} context={`rework rounds per task of ${row.label}`}>
        {(row.mean_rework_rounds ?? 0).toFixed(2)}
      </FigureLink>
    ),
    findings: findings && (
      <FigureLink
        href={drillHref('with_findings', row.key)}
        context={`blocker, major, minor and nit findings per task of ${row.label}`}
      >
        {[findings.blocker, findings.major, findings.minor, findings.nit]
          .map((x) => x.toFixed(1))
          .join(' · ')}
      </FigureLink>
    ),
    claim_to_end: (
      <>
        {humanDuration(row.claim_to_end_seconds.p50)}
        <span className="text-muted"> / {humanDuration(row.claim_to_end_seconds.p90)}</span>
      </>
    ),
    cost_per_merged_root: (
      <CostLink
        value={row.cost_per_merged_root}
        href={drillHref('merged_roots', row.key)}
        context={`per merged root task of ${row.label}`}
      />
    ),
    cost_per_accepted_subtask: (
      <CostLink
        value={row.cost_per_accepted_subtask}
        href={drillHref('accepted', row.key)}
        context={`per accepted subtask of ${row.label}`}
      />
    ),
    failure_on_start: row.failure_on_start ? (
      <FigureLink
        href={drillHref('failed_on_start', row.key)}
        context={`of runs failed on start, ${row.label}`}
        testId="scorecard-failure-on-start"
      >
        <IntervalBar interval={row.failure_on_start} />
      </FigureLink>
    ) : (
      <span className="text-muted italic">
        {row.runs === 0 ? 'no runs' : `not enough runs (n = ${row.runs} of ${minSample})`}
      </span>
    ),
  };
}

function Lines({ top, bottom }: { top: string; bottom: string }) {
  return (
    <span className="flex flex-col">
      <span>{top}</span>
      <span className="font-normal">{bottom}</span>
    </span>
  );
}

function GroupName({
  row,
  by,
  agentSlug,
  agentsHref,
}: {
  row: ScorecardRow;
  by: Grouping;
  agentSlug: (key: string) => string | undefined;
  agentsHref: (key: string) => string | null;
}) {
  if (row.key === null) return <span className="whitespace-nowrap text-muted italic">not known</span>;
  const slug = by === 'agent' ? agentSlug(row.key) : undefined;
  const agents = agentsHref(row.key);
  const mono = by === 'cli' || by === 'model' || by === 'agent';
  return (
    <span className="flex flex-col items-start gap-0.5">
      {slug ? (
        <Link to={`/agents/${slug}`} className={`${LINK} font-mono text-xs`} title={row.key}>
          {row.label}
        </Link>
      ) : (
        <span className={`break-words ${mono ? 'font-mono text-xs' : ''}`} title={row.key}>
          {row.label}
        </span>
      )}
      {agents && (
        <Link to={agents} className={`${LINK} text-xs font-normal`} data-testid="scorecard-agents">
          by agent<span className="sr-only">: the agents of {row.label}</span> ›
        </Link>
      )}
    </span>
  );
}

/** A figure that lists the tasks it counts; `context` completes its name for a screen reader. */
function FigureLink({
  href,
  context,
  testId,
  children,
}: {
  href: string;
  context: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Link to={href} preventScrollReset className={LINK} data-testid={testId}>
      {children}
      <span className="sr-only"> {context}: list the tasks</span>
    </Link>
  );
}

function CostLink({ value, href, context }: { value: number | null; href: string; context: string }) {
  if (value === null) return <span className="text-muted">—</span>;
  return (
    <FigureLink href={href} context={context}>
      {usdOrDash(value)}
    </FigureLink>
  );
}

function SortHeader({
  sortKey,
  label,
  right,
  active,
  direction,
  onSort,
  className = '',
}: {
  sortKey: SortKey;
  label: ReactNode;
  right: boolean;
  active: boolean;
  direction: Direction;
  onSort: (key: SortKey) => void;
  className?: string;
}) {
  const Icon = !active ? ChevronsUpDown : direction === 'asc' ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={`px-3 py-2 align-bottom font-medium whitespace-nowrap ${right ? 'text-right' : ''} ${className}`}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        data-testid={`sort-${sortKey}`}
        className={`inline-flex min-h-6 items-end gap-1 hover:text-text ${right ? 'text-right' : 'text-left'} ${active ? 'text-text' : ''}`}
      >
        {label}
        <Icon size={12} aria-hidden className="mb-0.5 shrink-0" />
      </button>
    </th>
  );
}
