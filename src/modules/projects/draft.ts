/**
 * A project's settings as the API takes them (snake_case) applied onto the stored ones: only the
 * fields present change, an explicit null clears (or resets to the default), values are trimmed
 * and normalised, and the merged result is checked field by field. Pure; the service stores it.
 */
import { branchNameProblem } from '../../platform/git/index.js';
import type { FieldProblem } from '../../platform/http/errors.js';
import type { DeliveryCell } from '../agents/index.js';
import { type GitProvider, inferProvider, isParsed, parseGitUrl, providerMismatch } from './git-url.js';
import { normalizeLadder } from './ladder.js';
import {
  DEFAULT_CI_WATCH_WORKFLOW,
  forgeApiUrlProblem,
  normalizeAgentNetworkAllow,
  normalizeCommand,
  normalizeDepUpdatePaths,
  slugProblem,
  workflowProblem,
} from './rules.js';
import type { LadderRung } from './schema.js';

export const COMMAND_FIELDS = {
  test_command: 'testCommand',
  lint_command: 'lintCommand',
  typecheck_command: 'typecheckCommand',
  build_command: 'buildCommand',
  quality_command: 'qualityCommand',
  dep_update_command: 'depUpdateCommand',
} as const;
type CommandField = keyof typeof COMMAND_FIELDS;

/** The settings fields of the create and update bodies (the git token is handled apart). */
export type ProjectBody = {
  slug?: string | undefined;
  name?: string | undefined;
  git_url?: string | undefined;
  git_provider?: GitProvider | null | undefined;
  forge_api_url?: string | null | undefined;
  default_branch?: string | undefined;
  protected_branches?: string[] | null | undefined;
  environments?: LadderRung[] | null | undefined;
  assigned_cell?: DeliveryCell | null | undefined;
  ci_watch_enabled?: boolean | undefined;
  ci_watch_workflow?: string | null | undefined;
  dep_update_paths?: string | null | undefined;
  agent_network_allow?: string[] | undefined;
  monthly_budget_usd?: number | null | undefined;
  is_active?: boolean | undefined;
} & { [K in CommandField]?: string | null | undefined };

/** The stored settings of a project (the columns a body can change). */
export interface ProjectState {
  slug: string;
  name: string;
  gitUrl: string;
  gitProvider: GitProvider | null;
  forgeApiUrl: string | null;
  defaultBranch: string;
  protectedBranches: string[];
  environments: LadderRung[] | null;
  assignedCell: string | null;
  testCommand: string | null;
  lintCommand: string | null;
  typecheckCommand: string | null;
  buildCommand: string | null;
  qualityCommand: string | null;
  ciWatchEnabled: boolean;
  ciWatchWorkflow: string;
  depUpdateCommand: string | null;
  depUpdatePaths: string | null;
  agentNetworkAllow: string[];
  monthlyBudgetUsd: number | null;
  isActive: boolean;
}

export const DEFAULT_BRANCH = 'main';

/** The settings of a new project: defaults, then the body (protected branches default to the default branch). */
export function newProjectState(body: ProjectBody & { slug: string; name: string; git_url: string }) {
  const base: ProjectState = {
    slug: body.slug,
    name: body.name,
    gitUrl: body.git_url,
    gitProvider: null,
    forgeApiUrl: null,
    defaultBranch: DEFAULT_BRANCH,
    protectedBranches: [],
    environments: null,
    assignedCell: null,
    testCommand: null,
    lintCommand: null,
    typecheckCommand: null,
    buildCommand: null,
    qualityCommand: null,
    ciWatchEnabled: false,
    ciWatchWorkflow: DEFAULT_CI_WATCH_WORKFLOW,
    depUpdateCommand: null,
    depUpdatePaths: null,
    agentNetworkAllow: [],
    monthlyBudgetUsd: null,
    isActive: true,
  };
  return applyProjectBody(base, { ...body, protected_branches: body.protected_branches ?? null });
}

/** `base` with the fields present in `body` applied, and every problem of the result. */
export function applyProjectBody(
  base: ProjectState,
  body: ProjectBody,
): { state: ProjectState; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const state: ProjectState = { ...base };
  const has = <K extends keyof ProjectBody>(key: K) => body[key] !== undefined;

  if (has('slug')) state.slug = body.slug!.trim();
  if (has('name')) state.name = body.name!.trim();
  if (has('git_url')) state.gitUrl = body.git_url!.trim();
  if (has('git_provider')) state.gitProvider = body.git_provider ?? null;
  if (has('forge_api_url')) state.forgeApiUrl = body.forge_api_url?.trim() || null;
  if (has('default_branch')) state.defaultBranch = body.default_branch!.trim();
  if (has('protected_branches')) {
    const branches = (body.protected_branches ?? [state.defaultBranch]).map((b) => b.trim());
    state.protectedBranches = [...new Set(branches)];
  }
  if (has('environments')) {
    const { ladder, problems: ladderProblems } = normalizeLadder(body.environments);
    state.environments = ladder;
    problems.push(...ladderProblems);
  }
  if (has('assigned_cell')) state.assignedCell = body.assigned_cell ?? null;
  for (const [field, column] of Object.entries(COMMAND_FIELDS) as [
    CommandField,
    (typeof COMMAND_FIELDS)[CommandField],
  ][]) {
    if (has(field)) state[column] = normalizeCommand(body[field]);
  }
  if (has('ci_watch_enabled')) state.ciWatchEnabled = body.ci_watch_enabled!;
  if (has('ci_watch_workflow'))
    state.ciWatchWorkflow = body.ci_watch_workflow?.trim() || DEFAULT_CI_WATCH_WORKFLOW;
  if (has('dep_update_paths')) {
    const { paths, problems: pathProblems } = normalizeDepUpdatePaths(body.dep_update_paths ?? null);
    state.depUpdatePaths = paths;
    problems.push(...pathProblems);
  }
  if (has('agent_network_allow')) {
    const { entries, problems: allowProblems } = normalizeAgentNetworkAllow(body.agent_network_allow!);
    state.agentNetworkAllow = entries;
    problems.push(...allowProblems);
  }
  if (has('monthly_budget_usd')) state.monthlyBudgetUsd = body.monthly_budget_usd ?? null;
  if (has('is_active')) state.isActive = body.is_active!;

  problems.push(...stateProblems(state));
  return { state, problems };
}

/** Problems of the merged settings that no single field's schema can see. */
function stateProblems(state: ProjectState): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string | null) => {
    if (message) problems.push({ field: `body.${field}`, message });
  };
  add('slug', slugProblem(state.slug));
  if (!state.name) add('name', 'must not be empty');
  const url = parseGitUrl(state.gitUrl);
  add('git_url', isParsed(url) ? null : url.problem);
  if (state.gitProvider && isParsed(url))
    add('git_provider', providerMismatch(state.gitProvider, state.gitUrl));
  if (state.forgeApiUrl) add('forge_api_url', forgeApiUrlProblem(state.forgeApiUrl));
  add('default_branch', branchNameProblem(state.defaultBranch));
  state.protectedBranches.forEach((branch, index) => {
    add(`protected_branches.${index}`, branchNameProblem(branch));
  });
  add('ci_watch_workflow', workflowProblem(state.ciWatchWorkflow));
  return problems;
}

/** The provider in force: the configured one, else what the URL implies. */
export const resolvedProvider = (state: Pick<ProjectState, 'gitProvider' | 'gitUrl'>): GitProvider | null =>
  state.gitProvider ?? inferProvider(state.gitUrl);
