/**
 * The forge of each project: the built-in local forge for a project whose provider is `local`
 * (configured, or implied by a path / file:// URL), else whatever the injected factory builds for
 * GitHub and Gitea (a later issue). One local forge per project and URL, so its merges queue up.
 */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { type Forge, LocalForge } from '../../platform/forge/index.js';
import type { GitRunner, KeyedQueue } from '../../platform/git/index.js';
import { inferProvider } from '../projects/index.js';
import { WorkspaceError } from './errors.js';
import type { TokenLookup } from './mirror.js';
import { forgeClonePath } from './paths.js';
import type { WorkspaceProject } from './types.js';

/** Builds the forge of a non-local project, or answers null when it cannot (no token, unknown host). */
export type ForgeFactory = (project: WorkspaceProject) => Forge | null;

export interface ProjectForgesDeps {
  db: Db;
  clock: Clock;
  runner: GitRunner;
  queue: KeyedQueue;
  root: string;
  tokenFor: TokenLookup;
  external?: ForgeFactory | undefined;
}

export class ProjectForges {
  private readonly local = new Map<string, LocalForge>();

  constructor(private readonly deps: ProjectForgesDeps) {}

  forgeFor(project: WorkspaceProject): Forge {
    const provider = project.gitProvider ?? inferProvider(project.gitUrl);
    if (provider === 'local') return this.localForge(project);
    const forge = this.deps.external?.(project) ?? null;
    if (!forge) {
      throw new WorkspaceError(
        'invalid_state',
        'forge_unavailable',
        `no forge is available for project ${project.slug} (provider ${provider ?? 'unknown'})`,
        { project: project.slug, provider },
        'set the project git_provider to local to let Gaffer record and merge pull requests itself',
      );
    }
    return forge;
  }

  private localForge(project: WorkspaceProject): LocalForge {
    const key = `${project.id}\n${project.gitUrl}`;
    let forge = this.local.get(key);
    if (!forge) {
      const { db, clock, runner, queue, root, tokenFor } = this.deps;
      forge = new LocalForge({
        db,
        clock,
        runner,
        queue,
        projectId: project.id,
        remoteUrl: project.gitUrl,
        workDir: forgeClonePath(root, project.slug),
        urlPrefix: `local://${project.slug}`,
        auth: async () => {
          const token = await tokenFor(project.id);
          return token ? { token, url: project.gitUrl } : null;
        },
      });
      this.local.set(key, forge);
    }
    return forge;
  }
}
