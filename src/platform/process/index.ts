/**
 * Running non-git programs (package managers, project scripts): argv only, never a shell, a
 * caller-built environment, a timeout, an AbortSignal, process-group kill and bounded output.
 * The git CLI has its own runner in `platform/git`.
 */
export {
  CommandError,
  type CommandFailure,
  type CommandOptions,
  type CommandResult,
  runCommand,
  TailBuffer,
} from './run-command.js';
