/** The X credentials (an OAuth 2.0 user bearer token), sealed at rest: set, clear, read. */
import { eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import { createSecretBox, type SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/client.js';
import { xCredentials } from './schema.js';
import { DEFAULT_X_API_URL } from './x-client.js';

const ROW_ID = 'x';
const AAD = `${ROW_ID}:bearer_token`;

export interface XCredentialsStatus {
  has_credentials: boolean;
  base_url: string;
}

export class XCredentialsStore {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    secret: string,
  ) {
    this.box = createSecretBox(secret, 'x-credentials');
  }

  private async row() {
    const [row] = await this.db.select().from(xCredentials).where(eq(xCredentials.id, ROW_ID));
    return row;
  }

  async status(): Promise<XCredentialsStatus> {
    const row = await this.row();
    return { has_credentials: row !== undefined, base_url: row?.baseUrl ?? DEFAULT_X_API_URL };
  }

  /** The opened token and base URL, or null when none are set. */
  async read(): Promise<{ bearerToken: string; baseUrl: string } | null> {
    const row = await this.row();
    if (!row) return null;
    return {
      bearerToken: this.box.open(row.bearerTokenSealed, AAD),
      baseUrl: row.baseUrl ?? DEFAULT_X_API_URL,
    };
  }

  async set(bearerToken: string, baseUrl: string | null, by: string): Promise<void> {
    const values = {
      bearerTokenSealed: this.box.seal(bearerToken, AAD),
      baseUrl,
      updatedBy: by,
      updatedAt: this.clock.now(),
    };
    await this.db
      .insert(xCredentials)
      .values({ id: ROW_ID, ...values })
      .onConflictDoUpdate({ target: xCredentials.id, set: values });
  }

  async clear(): Promise<void> {
    await this.db.delete(xCredentials).where(eq(xCredentials.id, ROW_ID));
  }
}
