/**
 * What the agent sandbox makes of the CLI the runtime starts: shown as it is (under /usr, or in
 * GAFFER_AGENT_SANDBOX_READ), its install bound by Gaffer for every run (a CLI under a home:
 * platform/process/cli-install.ts), or not bindable — then agents on it do not start, and the
 * finding names the one path to add to GAFFER_AGENT_SANDBOX_READ.
 */
import { type CliInstall, sandboxReadRemedy } from '../../../platform/process/cli-install.js';

/** What the doctor needs of the sandbox (AgentSandbox). */
export interface SandboxView {
  mode: 'on' | 'off';
  cliInstall(program: string, path: string | undefined): CliInstall | null;
}

export type CliSight =
  /** Runs in the sandbox; `note` says what Gaffer binds for it (null: nothing to bind). */
  { ok: true; note: string | null } | { ok: false; note: string; remedy: string; add: string };

/** Null when the sandbox is off or the program is not on the PATH (said elsewhere). */
export function cliSight(
  program: string,
  path: string | undefined,
  sandbox: SandboxView | null | undefined,
): CliSight | null {
  if (sandbox?.mode !== 'on') return null;
  const install = sandbox.cliInstall(program, path);
  if (!install) return null;
  if ('refused' in install) {
    return {
      ok: false,
      note: `${install.refused}, so no agent on it starts`,
      remedy: sandboxReadRemedy(install.pathToAdd),
      add: install.pathToAdd,
    };
  }
  if (install.bind.length === 0) return { ok: true, note: null };
  const at = install.found === install.real ? install.real : `${install.found} → ${install.real}`;
  return {
    ok: true,
    note: `installed at ${at}, outside the system: the sandbox binds ${install.bind.join(' and ')} read-only for it by itself`,
  };
}
