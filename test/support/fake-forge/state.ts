/**
 * What the fake forge knows: workflow runs, pull requests, releases (with their tags), served bare
 * repositories, scripted failures and the request log. Bookkeeping, plus real git on a served
 * repository (merges and tags land there); the GitHub and Gitea handlers render it in their wire formats.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitsAhead, createTag, initBareRepository, mergeBranches, revParse } from './served-git.js';

export type RunConclusion = 'success' | 'failure' | 'timed_out' | 'startup_failure' | 'cancelled';
export type RunStatus = 'completed' | 'in_progress' | 'queued';

export interface FakeRun {
  id: number;
  owner: string;
  repo: string;
  /** Workflow file name, e.g. `ci.yml`. */
  workflow: string;
  workflowId: number;
  name: string;
  branch: string;
  headSha: string;
  attempt: number;
  status: RunStatus;
  conclusion: RunConclusion | null;
  createdAt: string;
  updatedAt: string;
}

export interface AddRunInput {
  owner: string;
  repo: string;
  workflow: string;
  branch: string;
  headSha: string;
  conclusion: RunConclusion | null;
  status?: RunStatus;
  attempt?: number;
  name?: string;
}

export interface FakePull {
  id: number;
  number: number;
  state: 'open' | 'closed';
  title: string;
  body: string;
  /** Branch names. */
  head: string;
  base: string;
  head_sha: string;
  merged: boolean;
  merged_at: string | null;
  merge_commit_sha: string | null;
  merge_method: string | null;
  /** Set false to make the next merge answer "not mergeable" (a conflict). */
  mergeable: boolean;
  created_at: string;
  updated_at: string;
}

export interface FakeRelease {
  id: number;
  tag_name: string;
  target_commitish: string;
  name: string;
  body: string;
  html_url: string;
  /** The commit the tag points at. */
  sha: string;
  created_at: string;
}

/** A repository created on the fake (through the API or `createRepository`), served over git HTTP. */
export interface FakeRepository {
  id: number;
  owner: string;
  name: string;
  description: string;
  private: boolean;
  created_at: string;
}

export interface ScriptedFailure {
  pathPattern?: RegExp;
  status: number;
  times: number;
  retryAfterSeconds?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  at: number;
  /** Request headers, lowercased, without `authorization`. */
  headers: Record<string, string>;
  /** Whether the request carried the forge token. */
  authorized: boolean;
}

export class FakeForgeState {
  readonly runs: FakeRun[] = [];
  readonly requests: LoggedRequest[] = [];
  readonly failures: ScriptedFailure[] = [];
  private readonly pullsByRepo = new Map<string, FakePull[]>();
  private readonly releasesByRepo = new Map<string, FakeRelease[]>();
  private readonly served = new Map<string, string>();
  private readonly workflowIds = new Map<string, number>();
  private readonly hosted = new Map<string, FakeRepository>();
  private reposRoot: string | null = null;
  private nextId = 1000;
  private lastStamp = 0;

  addRun(input: AddRunInput): FakeRun {
    const at = this.stamp();
    const run: FakeRun = {
      id: this.nextId++,
      owner: input.owner,
      repo: input.repo,
      workflow: input.workflow,
      workflowId: this.workflowId(input.owner, input.repo, input.workflow),
      name: input.name ?? input.workflow.replace(/\.ya?ml$/, '').toUpperCase(),
      branch: input.branch,
      headSha: input.headSha,
      attempt: input.attempt ?? 1,
      status: input.status ?? (input.conclusion ? 'completed' : 'in_progress'),
      conclusion: input.conclusion,
      createdAt: at,
      updatedAt: at,
    };
    if (run.status !== 'completed') run.conclusion = null;
    this.runs.push(run);
    return run;
  }

  updateRun(runId: number, change: { status?: RunStatus; conclusion?: RunConclusion | null }): FakeRun {
    const run = this.runs.find((r) => r.id === runId);
    if (!run) throw new Error(`fake forge: no run ${runId}`);
    if (change.conclusion !== undefined) {
      run.conclusion = change.conclusion;
      if (change.conclusion && change.status === undefined) run.status = 'completed';
    }
    if (change.status !== undefined) run.status = change.status;
    if (run.status !== 'completed') run.conclusion = null;
    run.updatedAt = this.stamp();
    return run;
  }

  /** Runs of one repository, newest first. */
  runsOf(owner: string, repo: string): FakeRun[] {
    return this.runs.filter((r) => r.owner === owner && r.repo === repo).reverse();
  }

  /** The id of a workflow file, or undefined when no run of it was ever added. */
  knownWorkflowId(owner: string, repo: string, workflow: string): number | undefined {
    if (/^\d+$/.test(workflow)) {
      const id = Number(workflow);
      return [...this.workflowIds.entries()].some(([k, v]) => v === id && k.startsWith(`${owner}/${repo}/`))
        ? id
        : undefined;
    }
    return this.workflowIds.get(`${owner}/${repo}/${workflow}`);
  }

  pulls(owner: string, repo: string): FakePull[] {
    return listOf(this.pullsByRepo, `${owner}/${repo}`);
  }

  /**
   * Records an open pull request. On a served repository both branches must exist and the head
   * must have commits the base lacks; the answer is then the problem instead.
   */
  openPull(
    owner: string,
    repo: string,
    input: { head: string; base: string; title: string; body: string },
  ): FakePull | { problem: 'head_missing' | 'base_missing' | 'no_commits' } {
    const bare = this.served.get(`${owner}/${repo}`);
    if (bare) {
      if (!revParse(bare, `refs/heads/${input.head}`)) return { problem: 'head_missing' };
      if (!revParse(bare, `refs/heads/${input.base}`)) return { problem: 'base_missing' };
      if (commitsAhead(bare, `refs/heads/${input.base}`, `refs/heads/${input.head}`) === 0) {
        return { problem: 'no_commits' };
      }
    }
    const pulls = this.pulls(owner, repo);
    const at = this.stamp();
    const pull: FakePull = {
      id: this.nextId++,
      number: pulls.length + 1,
      state: 'open',
      title: input.title,
      body: input.body,
      head: input.head,
      base: input.base,
      head_sha: this.resolveRef(owner, repo, input.head) ?? fakeSha(),
      merged: false,
      merged_at: null,
      merge_commit_sha: null,
      merge_method: null,
      mergeable: true,
      created_at: at,
      updated_at: at,
    };
    pulls.push(pull);
    return pull;
  }

  /**
   * Merges an open pull request: on a served repository for real (the base branch moves), else
   * with a made-up commit. Null on a conflict, which also makes the pull request unmergeable.
   */
  mergePull(owner: string, repo: string, pull: FakePull, method: string, message: string): string | null {
    const bare = this.served.get(`${owner}/${repo}`);
    const sha = bare ? mergeBranches(bare, { base: pull.base, head: pull.head, method, message }) : fakeSha();
    if (!sha) {
      pull.mergeable = false;
      return null;
    }
    const at = this.stamp();
    pull.state = 'closed';
    pull.merged = true;
    pull.merged_at = at;
    pull.updated_at = at;
    pull.merge_method = method;
    pull.merge_commit_sha = sha;
    return sha;
  }

  releases(owner: string, repo: string): FakeRelease[] {
    return listOf(this.releasesByRepo, `${owner}/${repo}`);
  }

  /** Records a release and, when the repository is served, creates its tag there (lightweight, as GitHub does). */
  createRelease(
    owner: string,
    repo: string,
    input: { tag: string; target: string; name: string; body: string; htmlUrl: string },
  ): FakeRelease {
    const sha = this.resolveRef(owner, repo, input.target) ?? fakeSha();
    const bare = this.served.get(`${owner}/${repo}`);
    if (bare) createTag(bare, input.tag, sha);
    const release: FakeRelease = {
      id: this.nextId++,
      tag_name: input.tag,
      target_commitish: input.target,
      name: input.name,
      body: input.body,
      html_url: input.htmlUrl,
      sha,
      created_at: this.stamp(),
    };
    this.releases(owner, repo).push(release);
    return release;
  }

  serve(owner: string, repo: string, bareRepoPath: string): void {
    this.served.set(`${owner}/${repo}`, bareRepoPath);
  }

  /**
   * Creates `owner/name` as a real bare repository (with a README commit on main when `autoInit`)
   * and serves it; undefined when a repository of that name is there already.
   */
  createRepository(
    owner: string,
    name: string,
    options: { description?: string; private?: boolean; autoInit?: boolean } = {},
  ): FakeRepository | undefined {
    const key = `${owner}/${name}`.toLowerCase();
    if (this.hosted.has(key)) return undefined;
    this.reposRoot ??= mkdtempSync(join(tmpdir(), 'fake-forge-repos-'));
    const dir = join(this.reposRoot, owner, `${name}.git`);
    initBareRepository(dir, options.autoInit ? `# ${name}\n\n${options.description ?? ''}\n` : null);
    const repository: FakeRepository = {
      id: this.nextId++,
      owner,
      name,
      description: options.description ?? '',
      private: options.private ?? false,
      created_at: this.stamp(),
    };
    this.hosted.set(key, repository);
    this.serve(owner, name, dir);
    return repository;
  }

  repository(owner: string, name: string): FakeRepository | undefined {
    return this.hosted.get(`${owner}/${name}`.toLowerCase());
  }

  /** Removes the repositories created on the fake. */
  cleanup(): void {
    if (this.reposRoot) rmSync(this.reposRoot, { recursive: true, force: true });
    this.reposRoot = null;
  }

  servedPath(owner: string, repo: string): string | undefined {
    return this.served.get(`${owner}/${repo}`);
  }

  /**
   * The commit a ref names: a full sha as is; else a tag of a release, a branch or tag of the served
   * repository, or the head of the newest run on that branch; undefined when nothing matches.
   */
  resolveRef(owner: string, repo: string, ref: string): string | undefined {
    if (/^[0-9a-f]{40}$/.test(ref)) return ref;
    const bare = this.served.get(`${owner}/${repo}`);
    const served = bare ? revParse(bare, ref) : undefined;
    if (served) return served;
    const release = this.releases(owner, repo).find((r) => r.tag_name === ref);
    if (release) return release.sha;
    return this.runsOf(owner, repo).find((r) => r.branch === ref)?.headSha;
  }

  /** The scripted failure this request meets (consuming one use of it), if any. */
  takeFailure(path: string): ScriptedFailure | undefined {
    const index = this.failures.findIndex((f) => !f.pathPattern || f.pathPattern.test(path));
    if (index < 0) return undefined;
    const failure = this.failures[index]!;
    failure.times -= 1;
    if (failure.times <= 0) this.failures.splice(index, 1);
    return failure;
  }

  /** ISO timestamps that strictly increase, so "newest added" is also "newest created". */
  stamp(): string {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1000);
    return new Date(this.lastStamp).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private workflowId(owner: string, repo: string, workflow: string): number {
    const key = `${owner}/${repo}/${workflow}`;
    let id = this.workflowIds.get(key);
    if (id === undefined) {
      id = 500 + this.workflowIds.size;
      this.workflowIds.set(key, id);
    }
    return id;
  }
}

export function fakeSha(): string {
  return randomBytes(20).toString('hex');
}

function listOf<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}
