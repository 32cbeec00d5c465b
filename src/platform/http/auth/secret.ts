/**
 * The HMAC secret behind every token and panel login link. `GAFFER_AUTH_SECRET` wins; otherwise the
 * secret lives in `<dataDir>/auth-secret`, generated on first start with mode 0600. Generation is
 * race-safe: the secret is written to a private temp file and hard-linked into place, which fails if
 * another process got there first, so every process ends up reading the same, complete secret.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../../../config.js';

export const SECRET_FILE_NAME = 'auth-secret';

/** Shortest secret accepted from the file, matching the GAFFER_AUTH_SECRET rule. */
const MIN_SECRET_LENGTH = 32;

/** Raised when the secret file exists but cannot be trusted; the server must not start. */
export class SecretFileError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'SecretFileError';
  }
}

export function secretFilePath(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, SECRET_FILE_NAME);
}

export function loadOrCreateSecret(config: {
  dataDir: Config['dataDir'];
  authSecret?: Config['authSecret'];
}): string {
  if (config.authSecret) return config.authSecret;
  const path = secretFilePath(config);
  return readSecretFile(path) ?? createSecretFile(path);
}

/** The stored secret, or undefined when there is no file yet. Throws when the file is unsafe or unusable. */
function readSecretFile(path: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    const shown = (mode & 0o777).toString(8).padStart(4, '0');
    throw new SecretFileError(
      path,
      `is readable or writable by group/others (mode ${shown}); run \`chmod 600 ${path}\` and start again`,
    );
  }
  const secret = readFileSync(path, 'utf8').trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new SecretFileError(
      path,
      `holds fewer than ${MIN_SECRET_LENGTH} characters; delete it to generate a new secret (this invalidates every issued token)`,
    );
  }
  return secret;
}

function createSecretFile(path: string): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('hex');
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writePrivateFile(temp, `${secret}\n`);
  try {
    linkSync(temp, path);
    return secret;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return readWinner(path);
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') return createWithoutLinks(path, secret);
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

/** Another process created the file between our read and our link: use its secret. */
function readWinner(path: string): string {
  const secret = readSecretFile(path);
  if (secret === undefined) throw new SecretFileError(path, 'disappeared while it was being created');
  return secret;
}

/**
 * Filesystems without hard links: an exclusive create still guarantees a single winner, though a
 * racing reader could briefly see an empty file (and would then refuse to start rather than diverge).
 */
function createWithoutLinks(path: string, secret: string): string {
  try {
    writePrivateFile(path, `${secret}\n`);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readWinner(path);
    throw error;
  }
}

/** Exclusive create with mode 0600, written and flushed before anyone can link to it. */
function writePrivateFile(path: string, content: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
