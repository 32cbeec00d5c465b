/**
 * The write-only git token of a project, sealed with the platform's secret box under its own
 * purpose label and bound to the project's id (a ciphertext copied to another row does not open).
 * The plaintext goes only to the engines through `ProjectsService.gitToken`; it is never logged.
 */
import { createSecretBox, type SecretBox } from '../../platform/crypto/secret-box.js';

export const GIT_TOKEN_PURPOSE = 'projects.git_token';

export class GitTokenBox {
  private readonly box: SecretBox;

  constructor(secret: string) {
    this.box = createSecretBox(secret, GIT_TOKEN_PURPOSE);
  }

  seal(projectId: string, token: string): string {
    return this.box.seal(token, projectId);
  }

  open(projectId: string, sealed: string): string {
    return this.box.open(sealed, projectId);
  }
}

/**
 * What an update does to the stored token: null/absent keeps it, "" clears it, a value replaces it.
 * Returns undefined for "unchanged", else the new plaintext or null.
 */
export function gitTokenChange(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}
