/**
 * Making new repositories on GitHub (Octokit) or Gitea/Forgejo (REST with fetch) under one owner:
 * `POST /orgs/{owner}/repos` for an organisation, `POST /user/repos` when the owner is the token's
 * own user (asked once through `GET /user`). A name taken there is ForgeError `already_exists`
 * (GitHub answers 422 "name already exists", Gitea 409). Same rules as the per-repository forges: the token is asked for
 * at every call, every request carries the signal, transport failures go through the retry policy.
 */
import { Octokit } from '@octokit/rest';
import { fetchJson } from './gitea.js';
import { GITHUB_API_URL } from './github.js';
import { classifyTransport, failureOf, httpAnswerOf, statusOf } from './http-failure.js';
import { type RetryOptions, withRetries } from './retry.js';
import {
  type CreateRepositoryInput,
  ForgeError,
  type HostedRepository,
  type RepositoryHost,
} from './types.js';

export interface RepositoryHostOptions {
  provider: 'github' | 'gitea';
  /** The REST base URL; null or absent for https://api.github.com (GitHub; required for Gitea). */
  apiUrl?: string | null;
  /** The organisation or user new repositories belong to. */
  owner: string;
  /** The token, asked for at every call; null when none is configured. */
  token: () => Promise<string | null>;
  retry?: RetryOptions;
}

interface RawRepository {
  name: string;
  owner: { login: string };
  clone_url: string;
  html_url: string;
  private: boolean;
  default_branch?: string | null;
}

type Send = <T>(method: string, path: string, body?: unknown) => Promise<T>;

const SILENT_LOG = { debug() {}, info() {}, warn() {}, error() {} };

export function createRepositoryHost(options: RepositoryHostOptions): RepositoryHost {
  if (options.provider === 'gitea' && !options.apiUrl?.trim()) {
    throw new ForgeError('invalid_input', 'a Gitea repository host needs its API URL');
  }
  return new RestRepositoryHost(options);
}

class RestRepositoryHost implements RepositoryHost {
  readonly provider: 'github' | 'gitea';
  readonly owner: string;
  private readonly base: string;
  private login: string | null = null;

  constructor(private readonly options: RepositoryHostOptions) {
    this.provider = options.provider;
    this.owner = options.owner;
    this.base = (options.apiUrl?.trim() || GITHUB_API_URL).replace(/\/+$/, '');
  }

  async createRepository(input: CreateRepositoryInput, signal?: AbortSignal): Promise<HostedRepository> {
    return this.call(signal, async (send) => {
      const login = this.login ?? (await send<{ login: string }>('GET', '/user')).login;
      this.login = login;
      const own = login.toLowerCase() === this.owner.toLowerCase();
      const path = own ? '/user/repos' : `/orgs/${encodeURIComponent(this.owner)}/repos`;
      try {
        return repositoryView(
          await send<RawRepository>('POST', path, {
            name: input.name,
            description: input.description,
            private: input.private,
            auto_init: input.autoInit,
          }),
        );
      } catch (error) {
        const status = statusOf(error);
        const taken =
          status === 409 || (status === 422 && /already exists/i.test(httpAnswerOf(error)!.message));
        if (taken) {
          throw new ForgeError('already_exists', `a repository ${this.owner}/${input.name} already exists`, {
            status,
            owner: this.owner,
            name: input.name,
          });
        }
        throw error;
      }
    });
  }

  async getRepository(name: string, signal?: AbortSignal): Promise<HostedRepository | null> {
    try {
      return await this.call(signal, async (send) =>
        repositoryView(
          await send<RawRepository>(
            'GET',
            `/repos/${encodeURIComponent(this.owner)}/${encodeURIComponent(name)}`,
          ),
        ),
      );
    } catch (error) {
      if (error instanceof ForgeError && error.code === 'not_found') return null;
      throw error;
    }
  }

  /** Calls under the token and the retry policy, mapping failures to ForgeErrors. */
  private async call<T>(signal: AbortSignal | undefined, work: (send: Send) => Promise<T>): Promise<T> {
    const token = await this.options.token();
    if (!token) throw new ForgeError('unauthorized', `no token is configured for ${this.owner}`);
    const send = this.provider === 'github' ? this.octokitSend(token, signal) : this.fetchSend(token, signal);
    const retried: Send = (method, path, body) =>
      withRetries(() => send(method, path, body), classifyTransport, this.options.retry, signal);
    try {
      return await work(retried);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw failureOf(error, signal);
    }
  }

  private octokitSend(token: string, signal: AbortSignal | undefined): Send {
    const octokit = new Octokit({ baseUrl: this.base, userAgent: 'gaffer', log: SILENT_LOG });
    return async <T>(method: string, path: string, body?: unknown) => {
      const answer = await octokit.request(`${method} ${path}`, {
        ...((body as object | undefined) ?? {}),
        headers: { authorization: `token ${token}`, 'x-github-api-version': '2022-11-28' },
        request: { signal },
      });
      return answer.data as T;
    };
  }

  private fetchSend(token: string, signal: AbortSignal | undefined): Send {
    return <T>(method: string, path: string, body?: unknown) =>
      fetchJson<T>(new URL(`${this.base}${path}`), method, token, body, signal);
  }
}

function repositoryView(raw: RawRepository): HostedRepository {
  return {
    owner: raw.owner.login,
    name: raw.name,
    cloneUrl: raw.clone_url,
    webUrl: raw.html_url,
    private: raw.private,
    defaultBranch: raw.default_branch || 'main',
  };
}
