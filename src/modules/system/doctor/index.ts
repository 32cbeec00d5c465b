/**
 * The doctor on a running server: the machine checks (checks.ts) as the server sees them — its
 * PATH, its sandbox — plus the stores it holds and a probe of each configured model provider.
 */
import type { Platform } from '../../../platform/context.js';
import { isReadOnlyStore } from '../../../platform/db/errors.js';
import { messageOf } from '../../../platform/message-of.js';
import { agentSandbox, probeRunLimits, sandboxWarnings } from '../../../platform/process/index.js';
import type { ProvidersModule } from '../../providers/index.js';
import { splitShellWords } from '../../runtime/index.js';
import {
  checkAgentClis,
  checkGit,
  checkRouteKinds,
  checkRunLimits,
  checkRuntime,
  checkTemplateCli,
  type DoctorFinding,
  type DoctorReport,
  reportOf,
} from './checks.js';

export type { DoctorFinding, DoctorReport } from './checks.js';
export {
  checkAgentClis,
  checkGit,
  checkRunLimits,
  checkRuntime,
  checkTemplateCli,
  reportOf,
  TESTED_AGENT_CLIS,
} from './checks.js';

/**
 * The checks that need no server: the runtime, its sandbox and run limits, git, the agent CLIs —
 * the one the runtime starts as the sandbox would see it.
 */
export async function machineFindings(
  config: Platform['config'],
  env: NodeJS.ProcessEnv = process.env,
): Promise<DoctorFinding[]> {
  const runtime = { kind: config.agentRuntime, provider: config.agentProvider };
  const sandbox = agentSandbox(config);
  const [warning = null] = sandboxWarnings(await sandbox.state());
  // A sandbox that cannot be made is said once (the runtime finding), not again for each CLI.
  const view = warning ? null : sandbox;
  const [git, clis, limits] = await Promise.all([
    checkGit(env),
    checkAgentClis(runtime, env, view),
    probeRunLimits(),
  ]);
  const template = templateProgram(config);
  return [
    checkRuntime(runtime, { mode: config.agentSandbox, warning }),
    checkRunLimits(limits),
    git,
    ...clis,
    ...(runtime.kind === 'process' && template
      ? [checkTemplateCli(runtime.provider, template, env, view)]
      : []),
  ];
}

/** The program of the custom template (GAFFER_AGENT_COMMAND_CUSTOM) when the runtime starts that one. */
function templateProgram(config: Platform['config']): string | null {
  if (config.agentProvider !== 'custom' || !config.agentCommandCustom) return null;
  return splitShellWords(config.agentCommandCustom)[0] ?? null;
}

async function storeFinding(name: string, ping: () => Promise<void>): Promise<DoctorFinding> {
  try {
    await ping();
    return { area: 'stores', name, status: 'ok', detail: 'answers', remedy: null };
  } catch (error) {
    if (isReadOnlyStore(error)) {
      return {
        area: 'stores',
        name,
        status: 'fail',
        detail: 'answers, but takes no writes (read-only)',
        remedy: 'after `gaffer store move`, restart Gaffer with GAFFER_DATABASE_URL set to the new store',
      };
    }
    return {
      area: 'stores',
      name,
      status: 'fail',
      detail: `does not answer: ${messageOf(error)}`,
      remedy:
        name === 'database'
          ? 'check GAFFER_DATABASE_URL and that PostgreSQL runs'
          : 'check GAFFER_REDIS_URL and that Redis runs',
    };
  }
}

async function providerFindings(providers: ProvidersModule['service']): Promise<DoctorFinding[]> {
  const rows = await providers.list();
  if (rows.length === 0) {
    return [
      {
        area: 'model_provider',
        name: '(none)',
        status: 'warn',
        detail: 'no model provider is connected: agent CLIs use the keys in the server environment, if any',
        remedy: 'connect one on Settings → Models & agents (POST /api/providers) and route it',
      },
    ];
  }
  return Promise.all(
    rows.map(async (row): Promise<DoctorFinding> => {
      const base = { area: 'model_provider' as const, name: row.name };
      if (!row.enabled) return { ...base, status: 'ok', detail: 'disabled', remedy: null };
      const probe = await providers.test(row.name, 'models');
      if (probe.ok) {
        const listed = probe.model_count === undefined ? '' : `, ${probe.model_count} models listed`;
        return { ...base, status: 'ok', detail: `${row.kind} provider answers${listed}`, remedy: null };
      }
      return {
        ...base,
        status: 'fail',
        detail: `${probe.error.kind}: ${probe.error.message}`,
        remedy: /auth|key|401|403/i.test(`${probe.error.kind} ${probe.error.message}`)
          ? 'replace its key on Settings → Models & agents'
          : 'check its base URL and that it is reachable from the server',
      };
    }),
  );
}

export async function serverDoctor(
  platform: Pick<Platform, 'config' | 'database' | 'cache' | 'clock'>,
  providers: ProvidersModule['service'],
): Promise<DoctorReport> {
  const runtime = { kind: platform.config.agentRuntime, provider: platform.config.agentProvider };
  const [machine, database, cache, models, routes] = await Promise.all([
    machineFindings(platform.config),
    storeFinding('database', () => platform.database.ping()),
    storeFinding('cache', () => platform.cache.ping()),
    providerFindings(providers),
    providers.routes(),
  ]);
  return reportOf(
    [...machine, database, cache, ...models, ...checkRouteKinds(runtime, routes)],
    platform.clock.now(),
  );
}
