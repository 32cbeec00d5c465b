/**
 * Where workspaces live under `<dataDir>/workspaces`: per agent and project a clone
 * (`<agent>/<project>/clone`) and per task a worktree (`<agent>/<project>/tasks/<id8>`); per
 * project Gaffer's private mirror (`.mirrors/<project>.git`, the only repository that talks to
 * the remote with the token) and the local forge's merge clone (`.forge/<project>`). Names that
 * are not plain slugs are refused, so no path escapes the root.
 */
import { join } from 'node:path';
import { id8 } from './branch-names.js';

const SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/;

function segment(value: string, what: string): string {
  if (!SLUG.test(value)) throw new Error(`not a ${what} slug usable in a path: ${JSON.stringify(value)}`);
  return value;
}

export function workspacesRoot(dataDir: string): string {
  return join(dataDir, 'workspaces');
}

export function agentProjectDir(root: string, agentSlug: string, projectSlug: string): string {
  return join(root, segment(agentSlug, 'agent'), segment(projectSlug, 'project'));
}

export function clonePath(root: string, agentSlug: string, projectSlug: string): string {
  return join(agentProjectDir(root, agentSlug, projectSlug), 'clone');
}

export function worktreePath(root: string, agentSlug: string, projectSlug: string, taskId: string): string {
  return join(agentProjectDir(root, agentSlug, projectSlug), 'tasks', id8(taskId));
}

export function mirrorPath(root: string, projectSlug: string): string {
  return join(root, '.mirrors', `${segment(projectSlug, 'project')}.git`);
}

export function forgeClonePath(root: string, projectSlug: string): string {
  return join(root, '.forge', segment(projectSlug, 'project'));
}
