/** The configured search provider, its API key sealed at rest (bound to the row): set, clear, read. */
import { eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import { createSecretBox, type SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/client.js';
import { researchProvider } from './schema.js';
import { DEFAULT_BASE_URLS, type SearchProviderName } from './search-providers.js';

const ROW_ID = 'search';
const AAD = `${ROW_ID}:api_key`;

export interface ConfiguredProvider {
  provider: SearchProviderName;
  apiKey: string;
  baseUrl: string;
}

/** What may be shown of the configuration: never the key. */
export interface ProviderStatus {
  provider: SearchProviderName | null;
  base_url: string | null;
  has_api_key: boolean;
  updated_by: string | null;
  updated_at: string | null;
}

export class ProviderStore {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    secret: string,
  ) {
    this.box = createSecretBox(secret, 'research-provider-key');
  }

  private async row() {
    const [row] = await this.db.select().from(researchProvider).where(eq(researchProvider.id, ROW_ID));
    return row;
  }

  async status(): Promise<ProviderStatus> {
    const row = await this.row();
    return {
      provider: (row?.provider as SearchProviderName | undefined) ?? null,
      base_url: row ? (row.baseUrl ?? DEFAULT_BASE_URLS[row.provider as SearchProviderName]) : null,
      has_api_key: row !== undefined,
      updated_by: row?.updatedBy ?? null,
      updated_at: row?.updatedAt.toISOString() ?? null,
    };
  }

  /** The opened configuration, or null when no provider is configured. */
  async read(): Promise<ConfiguredProvider | null> {
    const row = await this.row();
    if (!row) return null;
    const provider = row.provider as SearchProviderName;
    return {
      provider,
      apiKey: this.box.open(row.apiKeySealed, AAD),
      baseUrl: row.baseUrl ?? DEFAULT_BASE_URLS[provider],
    };
  }

  async set(provider: SearchProviderName, apiKey: string, baseUrl: string | null, by: string): Promise<void> {
    const values = {
      provider,
      apiKeySealed: this.box.seal(apiKey, AAD),
      baseUrl,
      updatedBy: by,
      updatedAt: this.clock.now(),
    };
    await this.db
      .insert(researchProvider)
      .values({ id: ROW_ID, ...values })
      .onConflictDoUpdate({ target: researchProvider.id, set: values });
  }

  async clear(): Promise<void> {
    await this.db.delete(researchProvider).where(eq(researchProvider.id, ROW_ID));
  }
}
