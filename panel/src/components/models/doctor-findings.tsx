/**
 * What `gaffer doctor` finds (GET /api/system/doctor), as a table with a remedy per problem. The
 * Models & agents page shows the runtime and the agent CLIs; the inbox's first-run step shows
 * whatever is not ok. An agent CLI the sandbox cannot bind by itself gets a notice of its own
 * beside it, naming the path to add to GAFFER_AGENT_SANDBOX_READ: until then no agent starts.
 */
import { $api } from '../../api/client';
import { Button } from '../ui/button';
import { Loading } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { TableScroll } from '../ui/table-scroll';
import type { DoctorFinding } from './use-models';

const MARK = {
  ok: { label: 'ok', look: 'text-ok' },
  warn: { label: 'check', look: 'text-warn-text' },
  fail: { label: 'missing', look: 'text-danger-text font-semibold' },
} as const;

export function useDoctor() {
  return $api.useQuery('get', '/api/system/doctor', undefined, { staleTime: 60_000 });
}

export function DoctorTable({
  areas,
  onlyProblems = false,
}: {
  areas: readonly DoctorFinding['area'][];
  onlyProblems?: boolean;
}) {
  const doctor = useDoctor();
  if (doctor.error) return <ProblemNote error={doctor.error} prefix="Could not ask the doctor" />;
  if (!doctor.data) return <Loading what="the doctor's findings" />;
  const findings = doctor.data.findings.filter(
    (f) => areas.includes(f.area) && (!onlyProblems || f.status !== 'ok'),
  );
  return (
    <div className="space-y-2">
      {findings.length === 0 ? (
        <p className="text-ok">Nothing is missing.</p>
      ) : (
        <TableScroll label="What the doctor found" bare>
          <table className="w-full text-left" data-testid="doctor-findings">
            <thead className="text-xs text-muted">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Checked
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  State
                </th>
                <th scope="col" className="py-1 font-medium">
                  Found
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {findings.map((f) => {
                const mark = f.add_to_sandbox_read ? NOT_BOUND : MARK[f.status];
                return (
                  <tr key={`${f.area}:${f.name}`} data-testid={`doctor-${f.area}-${f.name}`}>
                    <th scope="row" className="py-1.5 pr-3 align-top font-normal whitespace-nowrap">
                      {AREA_LABEL[f.area]} <span className="font-mono">{f.name}</span>
                    </th>
                    <td className={`py-1.5 pr-3 align-top whitespace-nowrap ${mark.look}`}>{mark.label}</td>
                    <td className="py-1.5 align-top">
                      <p className="break-words">{f.detail}</p>
                      {f.add_to_sandbox_read ? (
                        <SandboxReadNotice path={f.add_to_sandbox_read} />
                      ) : (
                        f.remedy && <p className="mt-0.5 text-muted">→ {f.remedy}</p>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Button size="sm" disabled={doctor.isFetching} onClick={() => doctor.refetch()}>
        {doctor.isFetching ? 'Checking…' : 'Check again'}
      </Button>
    </div>
  );
}

/** An installed CLI the sandbox cannot show is not "missing": it is there, out of the agents' sight. */
const NOT_BOUND = { label: 'not bound', look: MARK.fail.look };

/** What to change for the sandbox to see the CLI, with the exact path. */
function SandboxReadNotice({ path }: { path: string }) {
  return (
    <div
      role="note"
      aria-label="Agent CLI outside the sandbox"
      data-testid="sandbox-read-notice"
      className="mt-1.5 rounded-md border border-danger/40 bg-danger-bg px-3 py-2 text-danger-text"
    >
      <p className="font-semibold">
        No agent on this CLI starts: the agent sandbox cannot bind it by itself.
      </p>
      <p className="mt-0.5">
        Add <code className="break-all font-mono">{path}</code> to{' '}
        <code className="font-mono">GAFFER_AGENT_SANDBOX_READ</code> and restart Gaffer — or move the CLI into
        a folder of its own, which the sandbox binds by itself.
      </p>
    </div>
  );
}

const AREA_LABEL: Record<DoctorFinding['area'], string> = {
  runtime: 'Runtime',
  git: 'Git',
  agent_cli: 'Agent CLI',
  stores: 'Store',
  model_provider: 'Provider',
};
