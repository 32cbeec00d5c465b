/**
 * The Gitea (and Forgejo) REST endpoints the fake forge answers under `/api/v1`, in Gitea's wire
 * format: the combined commit status (one status per workflow: its newest run of that commit),
 * pull requests, releases and tags.
 */
import { type ApiRequest, json, type Reply, type Route, route, text } from './http.js';
import type { FakePull, FakeRelease, FakeRun } from './state.js';

export function giteaNotFound(req: ApiRequest): Reply {
  return json(404, {
    errors: [],
    message: "The target couldn't be found.",
    url: `${req.webUrl}/api/swagger`,
  });
}

type GiteaState = 'pending' | 'success' | 'error' | 'failure';

export const giteaRoutes: Route[] = [
  route('GET', 'repos/:owner/:repo/commits/:ref/status', (req, p) => {
    const sha = req.state.resolveRef(p.owner!, p.repo!, p.ref!);
    if (!sha) return giteaNotFound(req);
    const statuses = newestRunPerWorkflow(req.state.runsOf(p.owner!, p.repo!), sha).map((run) =>
      statusView(req, run),
    );
    return json(200, {
      state: combinedState(statuses.map((s) => s.status)),
      sha,
      total_count: statuses.length,
      statuses,
      commit_url: `${req.apiUrl}/repos/${p.owner}/${p.repo}/git/commits/${sha}`,
      url: `${req.apiUrl}/repos/${p.owner}/${p.repo}/commits/${sha}/status`,
    });
  }),
  route('GET', 'repos/:owner/:repo/pulls', (req, p) => {
    const state = req.query.state ?? 'open';
    const pulls = req.state
      .pulls(p.owner!, p.repo!)
      .filter((pull) => state === 'all' || pull.state === state)
      .reverse();
    const limit = Math.min(50, Math.max(1, Number(req.query.limit ?? 30) || 30));
    const pageNo = Math.max(1, Number(req.query.page ?? 1) || 1);
    const slice = pulls.slice((pageNo - 1) * limit, pageNo * limit);
    return json(
      200,
      slice.map((pull) => pullView(req, p.owner!, p.repo!, pull)),
      { 'x-total-count': String(pulls.length) },
    );
  }),
  route('POST', 'repos/:owner/:repo/pulls', (req, p) => {
    const head = text(req.body.head);
    const base = text(req.body.base);
    const title = text(req.body.title);
    if (!head || !base || !title.trim()) {
      return json(422, { message: '[Head]: Required; [Base]: Required; [Title]: Required', url: req.webUrl });
    }
    if (head === base)
      return json(422, {
        message: 'Invalid PullRequest: There are no changes between the head and the base',
      });
    const open = req.state
      .pulls(p.owner!, p.repo!)
      .find((pull) => pull.state === 'open' && pull.head === head && pull.base === base);
    if (open) {
      return json(409, {
        message: `pull request already exists for these targets [id: ${open.id}, issue_id: ${open.id}, head_repo_id: 1, base_repo_id: 1, head_branch: ${head}, base_branch: ${base}]`,
        url: `${req.webUrl}/api/swagger`,
      });
    }
    const pull = req.state.openPull(p.owner!, p.repo!, { head, base, title, body: text(req.body.body) });
    if ('problem' in pull) {
      return pull.problem === 'no_commits'
        ? json(422, { message: 'Invalid PullRequest: There are no changes between the head and the base' })
        : giteaNotFound(req);
    }
    return json(201, pullView(req, p.owner!, p.repo!, pull));
  }),
  route('GET', 'repos/:owner/:repo/pulls/:number', (req, p) => {
    const pull = req.state.pulls(p.owner!, p.repo!).find((pr) => String(pr.number) === p.number);
    return pull ? json(200, pullView(req, p.owner!, p.repo!, pull)) : giteaNotFound(req);
  }),
  route('POST', 'repos/:owner/:repo/pulls/:number/merge', (req, p) => {
    const pull = req.state.pulls(p.owner!, p.repo!).find((pr) => String(pr.number) === p.number);
    if (!pull) return giteaNotFound(req);
    const method = text(req.body.Do);
    if (!['merge', 'squash', 'rebase', 'rebase-merge', 'fast-forward-only'].includes(method)) {
      return json(422, { message: '[Do]: Required', url: req.webUrl });
    }
    if (pull.merged) return json(405, { message: 'PR already merged', url: req.webUrl });
    if (pull.state !== 'open') return json(405, { message: 'PR is closed', url: req.webUrl });
    if (!pull.mergeable) return json(405, { message: 'Please try again later', url: req.webUrl });
    const title = text(req.body.MergeTitleField) || `${pull.title} (#${pull.number})`;
    const body = text(req.body.MergeMessageField);
    const sha = req.state.mergePull(p.owner!, p.repo!, pull, method, body ? `${title}\n\n${body}` : title);
    if (!sha) return json(409, { message: 'merge conflict', url: req.webUrl });
    return { status: 200 };
  }),
  route('GET', 'repos/:owner/:repo/releases/tags/:tag', (req, p) => {
    const release = req.state.releases(p.owner!, p.repo!).find((r) => r.tag_name === p.tag);
    return release ? json(200, releaseView(req, p, release)) : giteaNotFound(req);
  }),
  route('POST', 'repos/:owner/:repo/releases', (req, p) => {
    const tag = text(req.body.tag_name).trim();
    if (!tag) return json(422, { message: '[TagName]: Required', url: req.webUrl });
    if (req.state.releases(p.owner!, p.repo!).some((r) => r.tag_name === tag)) {
      return json(409, { message: `release tag already exist [id: 0, tag_name: ${tag}]`, url: req.webUrl });
    }
    const release = req.state.createRelease(p.owner!, p.repo!, {
      tag,
      target: text(req.body.target_commitish) || 'main',
      name: text(req.body.name) || tag,
      body: text(req.body.body),
      htmlUrl: `${req.webUrl}/${p.owner}/${p.repo}/releases/tag/${tag}`,
    });
    return json(201, releaseView(req, p, release));
  }),
  route('GET', 'repos/:owner/:repo/tags/:tag', (req, p) => {
    const sha = req.state.resolveRef(p.owner!, p.repo!, p.tag!);
    const isTag =
      req.state.releases(p.owner!, p.repo!).some((r) => r.tag_name === p.tag) ||
      Boolean(req.state.servedPath(p.owner!, p.repo!) && sha);
    if (!sha || !isTag) return giteaNotFound(req);
    return json(200, {
      name: p.tag,
      message: '',
      id: sha,
      commit: { url: `${req.apiUrl}/repos/${p.owner}/${p.repo}/git/commits/${sha}`, sha, created: '' },
      zipball_url: `${req.webUrl}/${p.owner}/${p.repo}/archive/${p.tag}.zip`,
      tarball_url: `${req.webUrl}/${p.owner}/${p.repo}/archive/${p.tag}.tar.gz`,
    });
  }),
];

/** Per workflow, the newest run of `sha` with the highest attempt. */
function newestRunPerWorkflow(runsNewestFirst: FakeRun[], sha: string): FakeRun[] {
  const chosen = new Map<string, FakeRun>();
  for (const run of runsNewestFirst) {
    if (run.headSha !== sha) continue;
    const seen = chosen.get(run.workflow);
    if (!seen || run.attempt > seen.attempt) chosen.set(run.workflow, run);
  }
  return [...chosen.values()];
}

function giteaState(run: FakeRun): GiteaState {
  if (run.status !== 'completed') return 'pending';
  switch (run.conclusion) {
    case 'success':
      return 'success';
    case 'startup_failure':
      return 'error';
    default:
      return 'failure';
  }
}

function combinedState(states: GiteaState[]): GiteaState | '' {
  if (states.length === 0) return '';
  if (states.includes('failure')) return 'failure';
  if (states.includes('error')) return 'error';
  if (states.includes('pending')) return 'pending';
  return 'success';
}

function statusView(req: ApiRequest, run: FakeRun) {
  return {
    id: run.id,
    status: giteaState(run),
    target_url: `${req.webUrl}/${run.owner}/${run.repo}/actions/runs/${run.id}`,
    description:
      run.status === 'completed' ? `${run.conclusion} after ${run.attempt} attempt(s)` : 'Waiting to run',
    url: `${req.apiUrl}/repos/${run.owner}/${run.repo}/statuses/${run.headSha}`,
    context: `${run.name} / build (push)`,
    creator: { login: 'gitea-actions' },
    created_at: run.createdAt,
    updated_at: run.updatedAt,
  };
}

function pullView(req: ApiRequest, owner: string, repo: string, pull: FakePull) {
  const ref = (branch: string, sha: string) => ({
    label: branch,
    ref: branch,
    sha,
    repo_id: 1,
    repo: { name: repo, full_name: `${owner}/${repo}`, owner: { login: owner } },
  });
  return {
    id: pull.id,
    url: `${req.webUrl}/${owner}/${repo}/pulls/${pull.number}`,
    number: pull.number,
    user: { login: 'gaffer' },
    title: pull.title,
    body: pull.body,
    state: pull.state,
    html_url: `${req.webUrl}/${owner}/${repo}/pulls/${pull.number}`,
    diff_url: `${req.webUrl}/${owner}/${repo}/pulls/${pull.number}.diff`,
    mergeable: pull.mergeable,
    merged: pull.merged,
    merged_at: pull.merged_at,
    merge_commit_sha: pull.merge_commit_sha,
    head: ref(pull.head, pull.head_sha),
    base: ref(pull.base, ''),
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: pull.state === 'closed' ? pull.updated_at : null,
  };
}

function releaseView(req: ApiRequest, p: Record<string, string>, release: FakeRelease) {
  return {
    id: release.id,
    tag_name: release.tag_name,
    target_commitish: release.target_commitish,
    name: release.name,
    body: release.body,
    url: `${req.apiUrl}/repos/${p.owner}/${p.repo}/releases/${release.id}`,
    html_url: release.html_url,
    tarball_url: `${req.webUrl}/${p.owner}/${p.repo}/archive/${release.tag_name}.tar.gz`,
    zipball_url: `${req.webUrl}/${p.owner}/${p.repo}/archive/${release.tag_name}.zip`,
    draft: false,
    prerelease: false,
    created_at: release.created_at,
    published_at: release.created_at,
    author: { login: 'gaffer' },
    assets: [],
  };
}
