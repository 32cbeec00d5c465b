/**
 * What `gaffer doctor` finds (GET /api/system/doctor), as a table with a remedy per problem. The
 * Models & agents page shows the runtime and the agent CLIs; the inbox's first-run step shows
 * whatever is not ok.
 */
import { $api } from '../../api/client';
import { Button } from '../ui/button';
import { Loading } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
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
            {findings.map((f) => (
              <tr key={`${f.area}:${f.name}`} data-testid={`doctor-${f.area}-${f.name}`}>
                <th scope="row" className="py-1.5 pr-3 align-top font-normal whitespace-nowrap">
                  {AREA_LABEL[f.area]} <span className="font-mono">{f.name}</span>
                </th>
                <td className={`py-1.5 pr-3 align-top ${MARK[f.status].look}`}>{MARK[f.status].label}</td>
                <td className="py-1.5 align-top">
                  <p>{f.detail}</p>
                  {f.remedy && <p className="mt-0.5 text-muted">→ {f.remedy}</p>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Button size="sm" disabled={doctor.isFetching} onClick={() => doctor.refetch()}>
        {doctor.isFetching ? 'Checking…' : 'Check again'}
      </Button>
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
