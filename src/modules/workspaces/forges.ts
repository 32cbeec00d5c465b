/**
 * The forge of each project: the built-in local forge for a project whose provider is `local`
 * (configured, or implied by a path / file:// URL), else a GitHub or Gitea REST forge for the
 * project's git URL and `forge_api_url`, whose token is the project's git token read at every call
 * (an injected factory may replace that, as tests do). Forges are kept per project, URL and API
 * URL, so a local forge's merges queue up and a REST forge is built once.
 */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import {
  createForge,
  type Forge,
  ForgeError,
  LocalForge,
  type RetryOptions,
} from '../../platform/forge/index.js';
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
  /** Replaces the built-in GitHub / Gitea factory. */
  external?: ForgeFactory | undefined;
  /** Retry policy of the built-in REST forges (default: 3 tries from 500 ms). */
  retry?: RetryOptions | undefined;
}

/** The built-in factory: GitHub or Gitea over REST, the token read from the project at every call. */
export function restForgeFactory(tokenFor: TokenLookup, retry?: RetryOptions): ForgeFactory {
  return (project) => {
    const provider = project.gitProvider ?? inferProvider(project.gitUrl);
    if (provider !== 'github' && provider !== 'gitea') return null;
    try {
      return createForge({
        provider,
        apiUrl: project.forgeApiUrl ?? null,
        gitUrl: project.gitUrl,
        token: () => tokenFor(project.id),
        ...(retry ? { retry } : {}),
      });
    } catch (error) {
      if (error instanceof ForgeError) return null;
      throw error;
    }
  };
}

export class ProjectForges {
  private readonly forges = new Map<string, Forge>();
  private readonly external: ForgeFactory;

  constructor(private readonly deps: ProjectForgesDeps) {
    this.external = deps.external ?? restForgeFactory(deps.tokenFor, deps.retry);
  }

  forgeFor(project: WorkspaceProject): Forge {
    const provider = project.gitProvider ?? inferProvider(project.gitUrl);
    const key = [project.id, provider, project.gitUrl, project.forgeApiUrl ?? ''].join('\n');
    const known = this.forges.get(key);
    if (known) return known;
    const forge = provider === 'local' ? this.localForge(project) : this.external(project);
    if (!forge) {
      throw new WorkspaceError(
        'invalid_state',
        'forge_unavailable',
        `no forge is available for project ${project.slug} (provider ${provider ?? 'unknown'})`,
        { project: project.slug, provider },
        provider
          ? 'check the project git_url: it must name an owner and a repository'
          : 'set the project git_provider (github, gitea, or local to let Gaffer record and merge pull requests itself)',
      );
    }
    this.forges.set(key, forge);
    return forge;
  }

  private localForge(project: WorkspaceProject): LocalForge {
    const { db, clock, runner, queue, root, tokenFor } = this.deps;
    return new LocalForge({
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
  }
}
