/**
 * What an agent of each role may do on the machine with its CLI's own tools, beyond its gateway
 * verbs: edit files and run commands (developers, documenters), only run commands — the project's
 * tests, linters, `git diff` — (QA, PR reviewers), or only read (PMs, the board, the auditor). The
 * sandbox bounds every reach to the task's worktree; this keeps each role's tools to its need, and
 * keeps the rest of a CLI's tools (sub-agents, web fetch and search, schedulers) out of every role.
 */
import type { Role } from '../../platform/http/auth/identity.js';

export type MachineReach = 'edit' | 'run' | 'read';

const EDITORS: readonly Role[] = ['developer', 'documenter'];
const RUNNERS: readonly Role[] = ['qa', 'pr_reviewer'];

export function machineReachOf(role: Role): MachineReach {
  if (EDITORS.includes(role)) return 'edit';
  return RUNNERS.includes(role) ? 'run' : 'read';
}

/** Claude Code's built-in tools for each reach (its `--tools` and `--allowedTools` lists). */
export const CLAUDE_TOOLS: Readonly<Record<MachineReach, string>> = {
  edit: 'Read,Write,Edit,Bash,Grep,Glob',
  run: 'Read,Bash,Grep,Glob',
  read: 'Read,Grep,Glob',
};
