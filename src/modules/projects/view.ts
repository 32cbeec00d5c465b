/** The API shape of a project. The git token never leaves as anything but `has_git_token`. */
import { resolvedProvider } from './draft.js';
import type { GitProvider } from './git-url.js';
import type { ProjectRow } from './service.js';

export function projectView(row: ProjectRow) {
  const gitProvider = row.gitProvider as GitProvider | null;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    git_url: row.gitUrl,
    git_provider: gitProvider,
    resolved_provider: resolvedProvider({ gitProvider, gitUrl: row.gitUrl }),
    forge_api_url: row.forgeApiUrl,
    default_branch: row.defaultBranch,
    protected_branches: row.protectedBranches,
    environments: row.environments ?? null,
    assigned_cell: row.assignedCell,
    test_command: row.testCommand,
    lint_command: row.lintCommand,
    typecheck_command: row.typecheckCommand,
    build_command: row.buildCommand,
    quality_command: row.qualityCommand,
    ci_watch_enabled: row.ciWatchEnabled,
    ci_watch_workflow: row.ciWatchWorkflow,
    dep_update_command: row.depUpdateCommand,
    dep_update_paths: row.depUpdatePaths,
    agent_network_allow: row.agentNetworkAllow,
    monthly_budget_usd: row.monthlyBudgetUsd,
    has_git_token: row.gitTokenCiphertext !== null,
    is_active: row.isActive,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
