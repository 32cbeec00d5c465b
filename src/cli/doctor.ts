/**
 * `gaffer doctor`: one table of what this Gaffer has and misses, with a remedy per problem. It asks
 * the running server (GET /api/system/doctor, as the CEO with a 60-second token signed with the
 * same secret) so the stores and model providers are checked as the server sees them; with no
 * server answering it checks this machine alone (runtime, sandbox, git, agent CLIs). Exits 1 when a
 * finding fails.
 */
import type { Config } from '../config.js';
import { type DoctorReport, machineFindings, reportOf } from '../modules/system/index.js';
import { baseUrl, CEO_IDENTITY, expiringToken, loadOrCreateSecret } from '../platform/http/auth/index.js';

async function fromServer(config: Config, base: string): Promise<DoctorReport | null> {
  const token = expiringToken(loadOrCreateSecret(config), CEO_IDENTITY, 60);
  try {
    const response = await fetch(`${base}/api/system/doctor`, {
      headers: { 'x-agent-token': token },
      signal: AbortSignal.timeout(60_000),
    });
    return response.ok ? ((await response.json()) as DoctorReport) : null;
  } catch {
    return null;
  }
}

const MARK = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;

/** The report as a table, a remedy under each finding that has one. */
export function doctorTable(report: DoctorReport): string {
  const width = Math.max(...report.findings.map((f) => `${f.area} ${f.name}`.length));
  const lines = report.findings.flatMap((f) => {
    const line = `${MARK[f.status]}  ${`${f.area} ${f.name}`.padEnd(width)}  ${f.detail}`;
    return f.remedy ? [line, `${' '.repeat(width + 8)}→ ${f.remedy}`] : [line];
  });
  const verdict = report.ok
    ? 'Nothing the configuration needs is missing.'
    : 'Something the configuration needs is missing (FAIL above).';
  return `${lines.join('\n')}\n\n${verdict}`;
}

export async function runDoctor(config: Config): Promise<number> {
  const base = baseUrl({ ...config, publicUrl: undefined });
  let report = await fromServer(config, base);
  if (report) console.log(`As the Gaffer at ${base} sees it:\n`);
  else {
    const findings = await machineFindings(config);
    findings.push({
      area: 'stores',
      name: '(not checked)',
      status: 'warn',
      detail: `no Gaffer answers at ${base}: the stores and model providers were not checked`,
      remedy: 'start it (gaffer start) and run gaffer doctor again',
    });
    report = reportOf(findings, new Date());
    console.log('This machine (no server answers):\n');
  }
  console.log(doctorTable(report));
  return report.ok ? 0 : 1;
}
