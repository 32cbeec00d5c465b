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
  CommandError,
  type CommandFailure,
  type CommandOptions,
  type CommandResult,
  runCommand,
  TailBuffer,
} from './run-command.js';
export { probeSandbox, type SandboxProbe } from './sandbox.js';
