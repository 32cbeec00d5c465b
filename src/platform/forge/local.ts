/**
 * The `local` forge: for any git remote without a forge API (a bare repository on disk, a plain
 * ssh or https remote). Pull requests are recorded by Gaffer in its database; a merge is real git
 * in a private working clone — fetch, check out the base, squash (or --no-ff) the head into it,
 * push the base with a lease (one retry when the base moved meanwhile). Releases are annotated
 * tags pushed to the remote. There is no CI: every CI question answers `unknown`.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import {
  assertRef,
  assertUrl,
  cloneRepo,
  createBranch,
  createTag,
  fetchRemote,
  type GitAuth,
  GitError,
  type GitIdentity,
  type GitRepo,
  type GitRunner,
  gitRaw,
  KeyedQueue,
  logBetween,
  mergeInto,
  openRepo,
  push,
  pushTag,
  readRemoteTag,
  resolveRef,
  type TagEntry,
} from '../git/index.js';
import { LocalPullRequests } from './local-pull-requests.js';
import {
  type CiStatus,
  type CreateReleaseInput,
  type Forge,
  ForgeError,
  type MergePullRequestInput,
  type OpenPullRequestInput,
  openForMerge,
  type PullRequest,
  type Release,
  UNKNOWN_CI,
} from './types.js';

export interface LocalForgeOptions {
  db: Db;
  clock: Clock;
  runner: GitRunner;
  /** The project whose pull requests these are. */
  projectId: string;
  remoteUrl: string;
  /** Gaffer's private working clone for merges and tags (created on first use). */
  workDir: string;
  /** The remote's token, asked for at every network call (it may change). */
  auth?: () => Promise<GitAuth | null> | GitAuth | null;
  /** Who merge commits and tags are by (default Gaffer). */
  identity?: GitIdentity;
  /** Links: `<urlPrefix>/pulls/<n>` and `<urlPrefix>/releases/<tag>` (default `local://<projectId>`). */
  urlPrefix?: string;
  /** Serialises work on the clone; share one across forges of the same process. */
  queue?: KeyedQueue;
}

export const GAFFER_IDENTITY: GitIdentity = { name: 'Gaffer', email: 'gaffer@gaffer.local' };

export class LocalForge implements Forge {
  readonly provider = 'local' as const;
  private readonly pulls: LocalPullRequests;
  private readonly queue: KeyedQueue;
  private readonly urlPrefix: string;

  constructor(private readonly options: LocalForgeOptions) {
    this.urlPrefix = (options.urlPrefix ?? `local://${options.projectId}`).replace(/\/+$/, '');
    this.pulls = new LocalPullRequests(options.db, options.projectId, options.clock, (n) =>
      this.linkTo(`pulls/${n}`),
    );
    this.queue = options.queue ?? new KeyedQueue();
  }

  async openPullRequest(input: OpenPullRequestInput, signal?: AbortSignal): Promise<PullRequest> {
    const head = refOrInvalid(input.head, 'head');
    const base = refOrInvalid(input.base, 'base');
    if (head === base) throw new ForgeError('invalid_input', 'head and base are the same branch');
    const title = input.title.trim();
    if (!title) throw new ForgeError('invalid_input', 'a pull request needs a title');
    await this.withClone(signal, async (clone) => {
      for (const branch of [head, base]) {
        if (!(await resolveRef(clone, `refs/remotes/origin/${branch}`))) {
          throw new ForgeError('invalid_input', `branch ${branch} does not exist on the remote`, { branch });
        }
      }
      const ahead = await logBetween(clone, { base: `origin/${base}`, head: `origin/${head}`, maxCount: 1 });
      if (ahead.length === 0) {
        throw new ForgeError('invalid_input', `no commits between ${base} and ${head}`, { head, base });
      }
    });
    return this.pulls.open({ head, base, title, body: input.body });
  }

  getPullRequest(number: number): Promise<PullRequest | null> {
    return this.pulls.get(number);
  }

  listOpenPullRequests(head: string): Promise<PullRequest[]> {
    return this.pulls.listOpen(head);
  }

  async mergePullRequest(
    number: number,
    input: MergePullRequestInput,
    signal?: AbortSignal,
  ): Promise<{ sha: string }> {
    const pull = openForMerge(await this.pulls.get(number), number);
    const subject = input.commitTitle?.trim() || `${pull.title} (#${number})`;
    const body = input.commitMessage ?? pull.body;
    const message = body.trim() ? `${subject}\n\n${body.trim()}\n` : `${subject}\n`;
    const sha = await this.withClone(signal, async (clone) => {
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) await fetchRemote(clone, { prune: true });
        const baseSha = await resolveRef(clone, `refs/remotes/origin/${pull.base}`);
        const headSha = await resolveRef(clone, `refs/remotes/origin/${pull.head}`);
        if (!baseSha || !headSha) {
          throw new ForgeError(
            'not_found',
            `branch ${baseSha ? pull.head : pull.base} is gone from the remote`,
          );
        }
        await createBranch(clone, pull.base, { startPoint: baseSha, checkout: true, force: true });
        const outcome = await mergeInto(clone, {
          source: headSha,
          method: input.method === 'squash' ? 'squash' : 'no-ff',
          message,
          identity: this.options.identity ?? GAFFER_IDENTITY,
        });
        if (outcome.outcome === 'conflict') {
          throw new ForgeError('merge_conflict', `pull request #${number} conflicts with ${pull.base}`, {
            files: outcome.files,
          });
        }
        if (outcome.outcome === 'up_to_date') return outcome.sha;
        try {
          await push(clone, {
            refspecs: [`${outcome.sha}:refs/heads/${pull.base}`],
            leases: [{ ref: `refs/heads/${pull.base}`, expect: baseSha }],
          });
          return outcome.sha;
        } catch (error) {
          if (attempt >= 1 || !(error instanceof GitError) || error.failure !== 'exit') throw error;
          // the base moved between fetch and push: fetch again and redo the merge once
        }
      }
    });
    const merged = await this.pulls.markMerged(number, input.method, sha);
    return { sha: merged.mergeSha ?? sha };
  }

  async branchCiStatus(_branch: string, _workflow: string): Promise<CiStatus> {
    return UNKNOWN_CI;
  }

  async commitCiStatus(_sha: string): Promise<CiStatus> {
    return UNKNOWN_CI;
  }

  async getRelease(tag: string, signal?: AbortSignal): Promise<Release | null> {
    const name = refOrInvalid(tag, 'tag');
    return this.withClone(signal, async (clone) => {
      const found = await readRemoteTag(clone, name);
      return found ? this.release(found) : null;
    });
  }

  async createRelease(input: CreateReleaseInput, signal?: AbortSignal): Promise<Release> {
    const tag = refOrInvalid(input.tag, 'tag');
    const target = refOrInvalid(input.target, 'target');
    return this.withClone(signal, async (clone) => {
      if (await readRemoteTag(clone, tag)) {
        throw new ForgeError('already_exists', `tag ${tag} already exists on the remote`, { tag });
      }
      const commit =
        (await resolveRef(clone, `refs/remotes/origin/${target}`)) ?? (await resolveRef(clone, target));
      if (!commit) throw new ForgeError('invalid_input', `target ${target} is neither a branch nor a commit`);
      const body = input.body.trim();
      await gitRaw(clone, ['tag', '--delete', tag], { okExitCodes: [1] });
      await createTag(clone, {
        name: tag,
        target: commit,
        message: body ? `${input.name.trim() || tag}\n\n${body}\n` : `${input.name.trim() || tag}\n`,
        identity: this.options.identity ?? GAFFER_IDENTITY,
      });
      await pushTag(clone, tag);
      const pushed = await readRemoteTag(clone, tag);
      if (!pushed) throw new ForgeError('unavailable', `tag ${tag} did not reach the remote`);
      return this.release(pushed);
    });
  }

  /** Runs `work` on the private clone, fetched fresh from the remote, one job at a time. */
  private withClone<T>(signal: AbortSignal | undefined, work: (clone: GitRepo) => Promise<T>): Promise<T> {
    return this.queue.run(this.options.workDir, async () => {
      const auth = (await this.options.auth?.()) ?? null;
      const call = { signal, auth: auth ? { ...auth, url: auth.url ?? this.options.remoteUrl } : null };
      const { runner, remoteUrl, workDir } = this.options;
      let clone: GitRepo;
      if (existsSync(join(workDir, '.git'))) {
        clone = openRepo(runner, workDir, call);
        await gitRaw(clone, ['remote', 'set-url', 'origin', assertUrl(remoteUrl)]);
        await gitRaw(clone, ['reset', '--hard', '--quiet']);
        await gitRaw(clone, ['clean', '-fdxq']);
        await fetchRemote(clone, { prune: true });
      } else {
        try {
          clone = await cloneRepo(runner, { url: remoteUrl, dir: workDir }, call);
        } catch (error) {
          rmSync(workDir, { recursive: true, force: true }); // an interrupted clone leaves half a repository
          throw error;
        }
      }
      return work(clone);
    });
  }

  private release(tag: TagEntry): Release {
    const [name = tag.name, ...rest] = tag.message.split('\n');
    return {
      tag: tag.name,
      name: name.trim() || tag.name,
      body: rest.join('\n').trim(),
      url: this.linkTo(`releases/${tag.name}`),
      sha: tag.sha,
    };
  }

  private linkTo(path: string): string {
    return `${this.urlPrefix}/${path}`;
  }
}

function refOrInvalid(ref: string, what: string): string {
  try {
    return assertRef(ref.trim(), what);
  } catch {
    throw new ForgeError('invalid_input', `not a usable ${what}: ${JSON.stringify(ref.slice(0, 80))}`);
  }
}
