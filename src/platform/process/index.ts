/**
 * Running programs: the one process-group wrapper (group.ts: spawn as a group leader, no shell;
 * SIGTERM, grace, SIGKILL to the whole group; wait until the group is gone), used by the git
 * runner (`platform/git`), the agent runtime and `runCommand` (non-git programs: a caller-built
 * environment, a timeout, an AbortSignal and bounded output).
 */

export {
  AgentSandbox,
  agentSandbox,
  SANDBOX_OFF_WARNING,
  type SandboxMode,
  type SandboxRun,
  type SandboxState,
  sandboxWarnings,
} from './agent-sandbox.js';
export { decideEgress, type EgressRefusal } from './egress-proxy.js';
export { findProgram } from './find-program.js';
export {
  type GroupLeader,
  type GroupSpawnOptions,
  type GroupStop,
  groupGone,
  killGroup,
  type PipedGroupLeader,
  ProcessStartError,
  processGroupAlive,
  signalGroup,
  spawnGroup,
  startProcessGroup,
  stopGroup,
} from './group.js';
export {
  type AllowEntry,
  AllowEntryError,
  allowListProblems,
  parseAllowEntry,
  parseAllowList,
} from './network-allow.js';
export {
  CommandError,
  type CommandFailure,
  type CommandOptions,
  type CommandResult,
  runCommand,
  TailBuffer,
} from './run-command.js';
export {
  agentRunLimits,
  createRunCgroup,
  probeRunLimits,
  type RunLimitBreach,
  type RunLimitName,
  type RunLimits,
  type RunLimitsHandle,
  type RunLimitsState,
  runLimitsWarnings,
} from './run-limits.js';
export { openRunNetwork, type RunNetwork, type RunNetworkOptions } from './run-network.js';
export { probeSandbox, type SandboxProbe } from './sandbox.js';
