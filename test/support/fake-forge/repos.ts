/**
 * Repository creation on the fake forge, in both wire formats: `GET /user` (the token's user is
 * `fake-forge-user`), `POST /orgs/:org/repos` and `POST /user/repos` (name, description, private,
 * auto_init), `GET /repos/:owner/:repo`. A name taken is GitHub's 422 "name already exists on this
 * account" or Gitea's 409. A created repository is a real bare repository served over git HTTP.
 */
import { type ApiRequest, json, type Reply, type Route, route, text } from './http.js';
import type { FakeRepository } from './state.js';

export const FAKE_FORGE_USER = 'fake-forge-user';
const DOCS = 'https://docs.github.com/rest';
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

type Flavor = 'github' | 'gitea';

function repositoryView(req: ApiRequest, repository: FakeRepository): Record<string, unknown> {
  const { owner, name } = repository;
  return {
    id: repository.id,
    name,
    full_name: `${owner}/${name}`,
    owner: { login: owner },
    description: repository.description,
    private: repository.private,
    html_url: `${req.webUrl}/${owner}/${name}`,
    clone_url: `${req.webUrl}/git/${owner}/${name}.git`,
    default_branch: 'main',
    created_at: repository.created_at,
  };
}

function create(flavor: Flavor, req: ApiRequest, owner: string): Reply {
  const name = text(req.body.name).trim();
  if (!NAME.test(name)) {
    return flavor === 'github'
      ? json(422, {
          message: 'Repository creation failed.',
          errors: [{ resource: 'Repository', code: 'missing_field', field: 'name' }],
          documentation_url: DOCS,
        })
      : json(422, { message: '[Name]: invalid repository name', url: `${req.webUrl}/api/swagger` });
  }
  const made = req.state.createRepository(owner, name, {
    description: text(req.body.description),
    private: req.body.private === true,
    autoInit: req.body.auto_init === true,
  });
  if (made) return json(201, repositoryView(req, made));
  return flavor === 'github'
    ? json(422, {
        message: 'Repository creation failed.',
        errors: [
          {
            resource: 'Repository',
            code: 'custom',
            field: 'name',
            message: 'name already exists on this account',
          },
        ],
        documentation_url: DOCS,
        status: '422',
      })
    : json(409, {
        message: 'The repository with the same name already exists.',
        url: `${req.webUrl}/api/swagger`,
      });
}

function routesFor(flavor: Flavor, notFound: (req: ApiRequest) => Reply): Route[] {
  return [
    route('GET', 'user', () => json(200, { id: 1, login: FAKE_FORGE_USER })),
    route('POST', 'user/repos', (req) => create(flavor, req, FAKE_FORGE_USER)),
    route('POST', 'orgs/:org/repos', (req, p) => create(flavor, req, p.org!)),
    route('GET', 'repos/:owner/:repo', (req, p) => {
      const found = req.state.repository(p.owner!, p.repo!);
      return found ? json(200, repositoryView(req, found)) : notFound(req);
    }),
  ];
}

export const githubRepoRoutes = routesFor('github', () =>
  json(404, { message: 'Not Found', documentation_url: DOCS, status: '404' }),
);
export const giteaRepoRoutes = routesFor('gitea', (req) =>
  json(404, { errors: [], message: "The target couldn't be found.", url: `${req.webUrl}/api/swagger` }),
);
