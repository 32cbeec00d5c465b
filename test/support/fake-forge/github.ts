/**
 * The GitHub REST endpoints the fake forge answers under `/api/v3`, in GitHub's wire format:
 * Actions workflow runs, commits, pull requests (open, read, list, merge) and releases.
 */
import { type ApiRequest, json, type Reply, type Route, route, text } from './http.js';
import type { FakePull, FakeRelease, FakeRun } from './state.js';

const DOCS = 'https://docs.github.com/rest';

export function notFound(): Reply {
  return json(404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
}

function validationFailed(errors: Record<string, unknown>[], message = 'Validation Failed'): Reply {
  return json(422, { message, errors, documentation_url: DOCS, status: '422' });
}

export const githubRoutes: Route[] = [
  route('GET', 'repos/:owner/:repo/actions/workflows/:workflow/runs', (req, p) => {
    const workflowId = req.state.knownWorkflowId(p.owner!, p.repo!, p.workflow!);
    if (workflowId === undefined) return notFound();
    return listRuns(req, p.owner!, p.repo!, (run) => run.workflowId === workflowId);
  }),
  route('GET', 'repos/:owner/:repo/actions/runs', (req, p) => listRuns(req, p.owner!, p.repo!, () => true)),
  route('GET', 'repos/:owner/:repo/actions/runs/:id', (req, p) => {
    const run = req.state.runsOf(p.owner!, p.repo!).find((r) => String(r.id) === p.id);
    return run ? json(200, runView(req, run)) : notFound();
  }),
  route('GET', 'repos/:owner/:repo/commits/:ref', (req, p) => {
    const sha = req.state.resolveRef(p.owner!, p.repo!, p.ref!);
    if (!sha) return json(422, { message: `No commit found for SHA: ${p.ref}`, documentation_url: DOCS });
    return json(200, {
      sha,
      url: `${req.apiUrl}/repos/${p.owner}/${p.repo}/commits/${sha}`,
      html_url: `${req.webUrl}/${p.owner}/${p.repo}/commit/${sha}`,
      commit: { message: '' },
    });
  }),
  route('GET', 'repos/:owner/:repo/pulls', (req, p) => {
    const state = req.query.state ?? 'open';
    const head = req.query.head?.includes(':')
      ? req.query.head.split(':').slice(1).join(':')
      : req.query.head;
    let pulls = req.state
      .pulls(p.owner!, p.repo!)
      .filter((pull) => state === 'all' || pull.state === state)
      .filter((pull) => !head || pull.head === head)
      .filter((pull) => !req.query.base || pull.base === req.query.base);
    if ((req.query.direction ?? 'desc') === 'desc') pulls = [...pulls].reverse();
    return json(
      200,
      page(req, pulls).map((pull) => pullView(req, p.owner!, p.repo!, pull, false)),
    );
  }),
  route('POST', 'repos/:owner/:repo/pulls', (req, p) => {
    const title = text(req.body.title);
    const base = text(req.body.base);
    const rawHead = text(req.body.head);
    const head = rawHead.includes(':') ? rawHead.split(':').slice(1).join(':') : rawHead;
    const missing = (['title', 'head', 'base'] as const).filter((field) => !text(req.body[field]).trim());
    if (missing.length > 0) {
      return validationFailed(
        missing.map((field) => ({ resource: 'PullRequest', field, code: 'missing_field' })),
      );
    }
    if (head === base) {
      return validationFailed([
        { resource: 'PullRequest', code: 'custom', message: `No commits between ${base} and ${head}` },
      ]);
    }
    const open = req.state
      .pulls(p.owner!, p.repo!)
      .find((pull) => pull.state === 'open' && pull.head === head && pull.base === base);
    if (open) {
      return validationFailed([
        {
          resource: 'PullRequest',
          code: 'custom',
          message: `A pull request already exists for ${p.owner}:${head}.`,
        },
      ]);
    }
    const pull = req.state.openPull(p.owner!, p.repo!, { head, base, title, body: text(req.body.body) });
    if ('problem' in pull) {
      return pull.problem === 'no_commits'
        ? validationFailed([
            { resource: 'PullRequest', code: 'custom', message: `No commits between ${base} and ${head}` },
          ])
        : validationFailed([
            {
              resource: 'PullRequest',
              field: pull.problem === 'head_missing' ? 'head' : 'base',
              code: 'invalid',
            },
          ]);
    }
    return json(201, pullView(req, p.owner!, p.repo!, pull, true));
  }),
  route('GET', 'repos/:owner/:repo/pulls/:number', (req, p) => {
    const pull = req.state.pulls(p.owner!, p.repo!).find((pr) => String(pr.number) === p.number);
    return pull ? json(200, pullView(req, p.owner!, p.repo!, pull, true)) : notFound();
  }),
  route('PUT', 'repos/:owner/:repo/pulls/:number/merge', (req, p) => {
    const pull = req.state.pulls(p.owner!, p.repo!).find((pr) => String(pr.number) === p.number);
    if (!pull) return notFound();
    const method = text(req.body.merge_method) || 'merge';
    if (!['merge', 'squash', 'rebase'].includes(method)) {
      return validationFailed([{ resource: 'PullRequest', field: 'merge_method', code: 'invalid' }]);
    }
    if (pull.state !== 'open' || !pull.mergeable) {
      return json(405, { message: 'Pull Request is not mergeable', documentation_url: DOCS, status: '405' });
    }
    if (req.body.sha && req.body.sha !== pull.head_sha) {
      return json(409, {
        message: 'Head branch was modified. Review and try the merge again.',
        documentation_url: DOCS,
        status: '409',
      });
    }
    const title = text(req.body.commit_title) || `${pull.title} (#${pull.number})`;
    const body = text(req.body.commit_message);
    const sha = req.state.mergePull(p.owner!, p.repo!, pull, method, body ? `${title}\n\n${body}` : title);
    if (!sha)
      return json(405, { message: 'Pull Request is not mergeable', documentation_url: DOCS, status: '405' });
    return json(200, { sha, merged: true, message: 'Pull Request successfully merged' });
  }),
  route('GET', 'repos/:owner/:repo/releases', (req, p) =>
    json(
      200,
      page(req, [...req.state.releases(p.owner!, p.repo!)].reverse()).map((r) => releaseView(req, p, r)),
    ),
  ),
  route('GET', 'repos/:owner/:repo/releases/tags/:tag', (req, p) => {
    const release = req.state.releases(p.owner!, p.repo!).find((r) => r.tag_name === p.tag);
    return release ? json(200, releaseView(req, p, release)) : notFound();
  }),
  route('POST', 'repos/:owner/:repo/releases', (req, p) => {
    const tag = text(req.body.tag_name).trim();
    if (!tag) return validationFailed([{ resource: 'Release', field: 'tag_name', code: 'missing_field' }]);
    if (req.state.releases(p.owner!, p.repo!).some((r) => r.tag_name === tag)) {
      return validationFailed([{ resource: 'Release', code: 'already_exists', field: 'tag_name' }]);
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
];

function listRuns(req: ApiRequest, owner: string, repo: string, keep: (run: FakeRun) => boolean): Reply {
  const { branch, status, head_sha: headSha, event } = req.query;
  const runs = req.state
    .runsOf(owner, repo)
    .filter(keep)
    .filter((run) => !branch || run.branch === branch)
    .filter((run) => !headSha || run.headSha === headSha)
    .filter(() => !event || event === 'push')
    .filter((run) => !status || run.status === status || run.conclusion === status);
  return json(200, {
    total_count: runs.length,
    workflow_runs: page(req, runs).map((run) => runView(req, run)),
  });
}

function page<T>(req: ApiRequest, items: T[]): T[] {
  const perPage = Math.min(100, Math.max(1, Number(req.query.per_page ?? 30) || 30));
  const pageNo = Math.max(1, Number(req.query.page ?? 1) || 1);
  return items.slice((pageNo - 1) * perPage, pageNo * perPage);
}

function runView(req: ApiRequest, run: FakeRun) {
  const repoApi = `${req.apiUrl}/repos/${run.owner}/${run.repo}`;
  return {
    id: run.id,
    name: run.name,
    node_id: `WFR_${run.id}`,
    head_branch: run.branch,
    head_sha: run.headSha,
    path: `.github/workflows/${run.workflow}`,
    display_title: run.name,
    run_number: run.id - 999,
    event: 'push',
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflowId,
    url: `${repoApi}/actions/runs/${run.id}`,
    html_url: `${req.webUrl}/${run.owner}/${run.repo}/actions/runs/${run.id}`,
    run_attempt: run.attempt,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    run_started_at: run.createdAt,
    jobs_url: `${repoApi}/actions/runs/${run.id}/jobs`,
    logs_url: `${repoApi}/actions/runs/${run.id}/logs`,
    workflow_url: `${repoApi}/actions/workflows/${run.workflowId}`,
    head_commit: { id: run.headSha, tree_id: run.headSha, message: run.name },
    repository: { name: run.repo, full_name: `${run.owner}/${run.repo}`, owner: { login: run.owner } },
  };
}

function pullView(req: ApiRequest, owner: string, repo: string, pull: FakePull, single: boolean) {
  const ref = (branch: string, sha: string) => ({
    label: `${owner}:${branch}`,
    ref: branch,
    sha,
    repo: { name: repo, full_name: `${owner}/${repo}`, owner: { login: owner } },
  });
  return {
    url: `${req.apiUrl}/repos/${owner}/${repo}/pulls/${pull.number}`,
    id: pull.id,
    node_id: `PR_${pull.id}`,
    html_url: `${req.webUrl}/${owner}/${repo}/pull/${pull.number}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    body: pull.body || null,
    user: { login: 'gaffer' },
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: pull.state === 'closed' ? pull.updated_at : null,
    merged_at: pull.merged_at,
    merge_commit_sha: pull.merge_commit_sha,
    draft: false,
    head: ref(pull.head, pull.head_sha),
    base: ref(pull.base, ''),
    ...(single
      ? {
          merged: pull.merged,
          mergeable: pull.state === 'open' ? pull.mergeable : null,
          mergeable_state: pull.mergeable ? 'clean' : 'dirty',
        }
      : {}),
  };
}

function releaseView(req: ApiRequest, p: Record<string, string>, release: FakeRelease) {
  return {
    url: `${req.apiUrl}/repos/${p.owner}/${p.repo}/releases/${release.id}`,
    html_url: release.html_url,
    id: release.id,
    node_id: `RE_${release.id}`,
    tag_name: release.tag_name,
    target_commitish: release.target_commitish,
    name: release.name,
    body: release.body,
    draft: false,
    prerelease: false,
    created_at: release.created_at,
    published_at: release.created_at,
    author: { login: 'gaffer' },
    assets: [],
    tarball_url: `${req.apiUrl}/repos/${p.owner}/${p.repo}/tarball/${release.tag_name}`,
    zipball_url: `${req.apiUrl}/repos/${p.owner}/${p.repo}/zipball/${release.tag_name}`,
  };
}
