/** Staging and committing: status, add, staged-change check, commit (with an author, optionally signed). */
import type { GitIdentity } from './env.js';
import { type GitRepo, gitRaw, gitText } from './repo.js';

export interface StatusEntry {
  /** Two-letter porcelain code, e.g. ` M`, `A `, `??`. */
  code: string;
  path: string;
}

/** The working tree's changes (untracked files included), as `git status --porcelain` lists them. */
export async function workingTreeStatus(repo: GitRepo): Promise<StatusEntry[]> {
  const out = await gitRaw(repo, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  const fields = out.stdout.toString('utf8').split('\0');
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    entries.push({ code, path: field.slice(3) });
    if (code.startsWith('R') || code.startsWith('C')) i++; // the rename's source path follows
  }
  return entries;
}

/** Stages everything (`add -A`), or only the given paths. */
export async function stage(repo: GitRepo, paths?: readonly string[]): Promise<void> {
  await gitRaw(repo, ['add', '-A', '--', ...(paths && paths.length > 0 ? paths : ['.'])]);
}

export async function hasStagedChanges(repo: GitRepo): Promise<boolean> {
  const result = await gitRaw(repo, ['diff', '--cached', '--quiet', '--no-ext-diff'], { okExitCodes: [1] });
  return result.exitCode === 1;
}

export interface CommitOptions {
  message: string;
  author: GitIdentity;
  /** Sign with GnuPG (`-S`, or `-S<keyId>`); `gnupgHome` holds the key. */
  sign?: { keyId?: string; gnupgHome?: string };
  allowEmpty?: boolean;
  /** Commit only these paths (`--only`), leaving anything else staged where it is. */
  only?: readonly string[];
}

/** The flag that signs (or does not sign) the commits a command makes. */
export const signFlag = (sign?: CommitOptions['sign']) =>
  sign ? (sign.keyId ? `--gpg-sign=${sign.keyId}` : '--gpg-sign') : '--no-gpg-sign';

/** Commits what is staged; answers the new commit's sha. */
export async function commitStaged(repo: GitRepo, options: CommitOptions): Promise<string> {
  const args = ['commit', '--quiet', '--no-verify', '--file=-'];
  if (options.allowEmpty) args.push('--allow-empty');
  args.push(signFlag(options.sign));
  if (options.only && options.only.length > 0) args.push('--only', '--', ...options.only);
  await gitRaw(repo, args, {
    identity: options.author,
    stdin: options.message,
    gnupgHome: options.sign?.gnupgHome,
  });
  return gitText(repo, ['rev-parse', 'HEAD']);
}
