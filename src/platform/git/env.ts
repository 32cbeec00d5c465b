/**
 * The environment every git child process gets, built from nothing rather than inherited: no
 * GIT_* variable of the parent can redirect a call (GIT_DIR, GIT_WORK_TREE, GIT_CONFIG_*), the
 * user's and the system's git config are never read (HOME is an isolated directory,
 * GIT_CONFIG_GLOBAL=/dev/null, GIT_CONFIG_NOSYSTEM=1), nothing prompts, and hooks, fsmonitor and
 * external diff/merge helpers configured in a repository never run.
 *
 * A token travels only here, as an `http.<origin>/.extraHeader` entry of the command-line config
 * (GIT_CONFIG_COUNT/KEY/VALUE): never in argv, never in a remote URL, never in a config file.
 */
import { secretForms } from './errors.js';

/** Credentials for one network call: sent as HTTP Basic auth (`username:token`). */
export interface GitAuth {
  token: string;
  /** Default `x-access-token` (GitHub); Gitea and most hosts accept any name with a token. */
  username?: string;
  /**
   * The remote the token is for. When it is an http(s) URL, the header is scoped to its origin,
   * so a remote URL rewritten to another host never receives it.
   */
  url?: string;
}

/** Who a commit is by, for calls that create commits, merges or tags. */
export interface GitIdentity {
  name: string;
  email: string;
}

export interface GitEnvInput {
  home: string;
  auth?: GitAuth | null | undefined;
  identity?: GitIdentity | undefined;
  /** For signed commits: the GnuPG home holding the signing key. */
  gnupgHome?: string | undefined;
  /** The parent environment to take PATH, proxies and the ssh agent from (default process.env). */
  parent?: NodeJS.ProcessEnv;
}

/** Parent variables a git call may still need: where binaries are, proxies, the ssh agent. */
const PASSED_THROUGH = [
  'PATH',
  'TMPDIR',
  'SSH_AUTH_SOCK',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'SYSTEMROOT',
];

/** Command-line config applied to every call; it overrides anything a repository's config says. */
const HARDENING: ReadonlyArray<readonly [string, string]> = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['credential.helper', ''],
  ['protocol.ext.allow', 'never'],
  ['advice.detachedHead', 'false'],
  ['init.defaultBranch', 'main'],
  ['gc.auto', '0'],
];

export function buildGitEnv(input: GitEnvInput): Record<string, string> {
  const parent = input.parent ?? process.env;
  const env: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  Object.assign(env, {
    HOME: input.home,
    XDG_CONFIG_HOME: input.home,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    SSH_ASKPASS: 'true',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
    GIT_EDITOR: 'true',
    GIT_PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
  });
  const config: Array<readonly [string, string]> = [...HARDENING];
  if (input.auth?.token) config.push([extraHeaderKey(input.auth.url), authorizationHeader(input.auth)]);
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(config.length);
  if (input.identity) {
    env.GIT_AUTHOR_NAME = input.identity.name;
    env.GIT_AUTHOR_EMAIL = input.identity.email;
    env.GIT_COMMITTER_NAME = input.identity.name;
    env.GIT_COMMITTER_EMAIL = input.identity.email;
  }
  if (input.gnupgHome) env.GNUPGHOME = input.gnupgHome;
  return env;
}

/** The secrets a call with these credentials could leak: scrubbed from every error it raises. */
export function authSecrets(auth: GitAuth | null | undefined): string[] {
  return auth?.token ? secretForms(auth.token, auth.username) : [];
}

function authorizationHeader(auth: GitAuth): string {
  const pair = `${auth.username ?? 'x-access-token'}:${auth.token}`;
  return `Authorization: Basic ${Buffer.from(pair).toString('base64')}`;
}

/** `http.<scheme>://<host>/.extraHeader` for an http(s) URL, else the unscoped `http.extraHeader`. */
function extraHeaderKey(url: string | undefined): string {
  if (!url) return 'http.extraHeader';
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') {
      return `http.${parsed.protocol}//${parsed.host}/.extraHeader`;
    }
  } catch {
    // not a URL (a path or scp-like address): no scope to apply
  }
  return 'http.extraHeader';
}
