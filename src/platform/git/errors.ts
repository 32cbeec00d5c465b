/**
 * The one error every git operation throws, and the scrubber that keeps credentials out of it:
 * stderr and the argv it reports pass through `scrubSecrets`, which removes the tokens of the call,
 * their Basic-auth encodings, URL userinfo and any Authorization header value.
 */

export type GitFailure =
  /** git ran and exited non-zero. */
  | 'exit'
  /** The caller's AbortSignal fired; the process group was killed. */
  | 'aborted'
  /** The call outlived its timeout; the process group was killed. */
  | 'timeout'
  /** git could not be started at all (not installed, bad cwd). */
  | 'spawn_failed'
  /** The output passed the call's buffer limit; the process group was killed. */
  | 'output_too_large'
  /** An argument was refused before git ran (a ref starting with "-", a control character). */
  | 'bad_argument';

export class GitError extends Error {
  constructor(
    readonly failure: GitFailure,
    message: string,
    /** The git sub-command and its arguments, scrubbed. */
    readonly args: readonly string[],
    readonly exitCode: number | null = null,
    /** git's stderr, scrubbed and trimmed. */
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'GitError';
  }
}

const REDACTED = '***';

/** Every form a token may take on the wire: itself and the Basic-auth encodings git would send. */
export function secretForms(token: string, username = 'x-access-token'): string[] {
  if (!token) return [];
  const forms = [token, Buffer.from(`${username}:${token}`).toString('base64')];
  return forms.filter((form) => form.length >= 4);
}

/** `text` with the given secrets, URL userinfo and Authorization header values replaced by ***. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, `$1${REDACTED}@`)
    .replace(/(authorization:\s*)(\S+)(\s+\S+)?/gi, (_m, head: string, scheme: string, rest?: string) =>
      rest ? `${head}${scheme} ${REDACTED}` : `${head}${REDACTED}`,
    );
}
