/**
 * Starts one agent run for the dispatcher and the orchestrator routes: the task's worktree as the
 * working directory (prepared by the workspaces module; a scratch directory of the agent's own for
 * work without a repository), an expiring token for the agent, the configured provider and
 * runtime, through the runtime supervisor (which returns the run of an agent already running).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { expiringToken } from '../../platform/http/auth/index.js';
import type { ProjectsService } from '../projects/index.js';
import type { RuntimeKind, RuntimeSupervisor, SpawnResult } from '../runtime/index.js';
import { type TaskRow, taskRow } from '../tasks/index.js';
import type { WorkspacesService } from '../workspaces/index.js';
import { type CharterFacts, withCharter } from './prompt.js';
import type { DispatchAgent } from './routing.js';

export interface SpawnSettings {
  runtime: RuntimeKind;
  provider: string;
  gatewayUrl: string;
  tokenTtlSeconds: number;
  /** Where agents without a repository to work in get a directory of their own. */
  scratchRoot: string;
}

/** What an experiment's arm runs instead of the usual: null fields are as usual. */
export interface ExperimentArm {
  cli: string | null;
  provider: string | null;
  model: string | null;
}

export interface AgentSpawnerDeps {
  db: Db;
  clock: Clock;
  secret: string;
  supervisor: RuntimeSupervisor;
  workspaces: Pick<WorkspacesService, 'prepareTaskWorkspace'>;
  projects: Pick<ProjectsService, 'find'>;
  settings: SpawnSettings;
  /** The company charter, appended to every prompt as a short block. */
  charter?: () => Promise<CharterFacts | null>;
  experimentArm?: (role: string, taskId: string) => Promise<ExperimentArm | null>;
}

export class AgentSpawner {
  constructor(private readonly deps: AgentSpawnerDeps) {}

  get settings(): SpawnSettings {
    return this.deps.settings;
  }

  /** The task row a spawn works on; null when there is none. */
  async task(taskId: string): Promise<TaskRow | null> {
    return taskRow(this.deps.db, taskId);
  }

  /** The agent's working directory for `task`: its worktree of the task, else its scratch directory. */
  async workspaceFor(
    agent: DispatchAgent,
    task: TaskRow | null,
    signal?: AbortSignal,
  ): Promise<{ path: string; gitDir: string | null; networkAllow: readonly string[] }> {
    if (task?.projectId) {
      const project = await this.deps.projects.find(task.projectId);
      if (project) {
        const prepared = await this.deps.workspaces.prepareTaskWorkspace({
          task,
          project,
          agent: { slug: agent.slug, role: agent.role, team: agent.team },
          signal,
        });
        return {
          path: prepared.path,
          gitDir: join(prepared.clonePath, '.git'),
          networkAllow: project.agentNetworkAllow,
        };
      }
    }
    const dir = join(this.deps.settings.scratchRoot, agent.slug);
    await mkdir(dir, { recursive: true });
    return { path: dir, gitDir: null, networkAllow: [] };
  }

  /** Starts the agent on `task` with `prompt` (or returns its running run). */
  async spawn(
    agent: DispatchAgent,
    task: TaskRow | null,
    prompt: string,
    signal?: AbortSignal,
  ): Promise<SpawnResult> {
    const running = this.deps.supervisor.get(agent.id);
    if (running) return { agent: running, alreadyRunning: true };
    const { settings, clock, secret } = this.deps;
    const workspace = await this.workspaceFor(agent, task, signal);
    const token = expiringToken(
      secret,
      { id: agent.id, role: agent.role, team: agent.team ?? '' },
      settings.tokenTtlSeconds,
      clock.now(),
    );
    // An experiment's arm names the CLI, the provider or the model the run takes instead of the usual.
    const arm = task ? ((await this.deps.experimentArm?.(agent.role, task.id)) ?? null) : null;
    return this.deps.supervisor.spawn(settings.runtime, {
      agent: { id: agent.id, slug: agent.slug, role: agent.role, team: agent.team },
      taskId: task?.id ?? null,
      workspace: workspace.path,
      gitDir: workspace.gitDir,
      prompt: withCharter(prompt, (await this.deps.charter?.()) ?? null),
      model: arm ? (arm.model ?? (arm.provider ? null : (agent.model ?? null))) : (agent.model ?? null),
      provider: arm?.cli ?? settings.provider,
      route: arm?.provider ? { provider: arm.provider, model: arm.model } : null,
      gatewayUrl: settings.gatewayUrl,
      token,
      networkAllow: workspace.networkAllow,
    });
  }
}
