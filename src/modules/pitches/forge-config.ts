/**
 * The provisioning forge's configuration (CEO, /api/pitches/forge): one row with the provider,
 * API URL, owner and private default, and a write-only token sealed at rest (like project git
 * tokens). `host()` gives the RepositoryHost approval creates repositories on, or null when none
 * is configured (approval then makes local bare repositories).
 */
import { eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import { createSecretBox, type SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/client.js';
import { createRepositoryHost, type RepositoryHost } from '../../platform/forge/index.js';
import { unprocessable } from '../../platform/http/errors.js';
import { pitchForge } from './schema.js';

const ROW = 'default';
export const FORGE_TOKEN_PURPOSE = 'pitches.forge_token';

export interface ForgeConfigInput {
  provider: 'github' | 'gitea';
  api_url: string;
  owner: string;
  private?: boolean | undefined;
  /** Null or absent keeps the stored token; required when none is stored. */
  token?: string | null | undefined;
}

export interface ForgeConfigView {
  provider: 'github' | 'gitea';
  api_url: string;
  owner: string;
  private: boolean;
  has_token: boolean;
  updated_by: string;
  updated_at: string;
}

export interface ProvisioningForge {
  host: RepositoryHost;
  apiUrl: string;
  /** The token, for the projects approval creates (their workspaces clone with it). */
  token: string;
  private: boolean;
}

export class ForgeConfigStore {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly clock: Clock,
  ) {
    this.box = createSecretBox(secret, FORGE_TOKEN_PURPOSE);
  }

  async get(): Promise<ForgeConfigView | null> {
    const row = await this.row();
    return row ? view(row) : null;
  }

  async put(input: ForgeConfigInput, by: string): Promise<ForgeConfigView> {
    const existing = await this.row();
    const token = input.token?.trim() || null;
    if (!token && !existing) {
      throw unprocessable('a token is required to configure the provisioning forge', [
        { field: 'token', problem: 'required when none is stored' },
      ]);
    }
    const values = {
      provider: input.provider,
      apiUrl: input.api_url.trim().replace(/\/+$/, ''),
      owner: input.owner.trim(),
      private: input.private ?? existing?.private ?? true,
      tokenSealed: token ? this.box.seal(token, ROW) : existing!.tokenSealed,
      updatedBy: by,
      updatedAt: this.clock.now(),
    };
    const [row] = await this.db
      .insert(pitchForge)
      .values({ id: ROW, ...values })
      .onConflictDoUpdate({ target: pitchForge.id, set: values })
      .returning();
    return view(row!);
  }

  /** Removes the configuration; true when there was one. */
  async clear(): Promise<boolean> {
    const gone = await this.db.delete(pitchForge).where(eq(pitchForge.id, ROW)).returning();
    return gone.length > 0;
  }

  /** The forge approval creates repositories on, or null when none is configured. */
  async provisioning(): Promise<ProvisioningForge | null> {
    const row = await this.row();
    if (!row) return null;
    const token = this.box.open(row.tokenSealed, ROW);
    const provider = row.provider as 'github' | 'gitea';
    return {
      host: createRepositoryHost({
        provider,
        apiUrl: row.apiUrl,
        owner: row.owner,
        token: async () => token,
      }),
      apiUrl: row.apiUrl,
      token,
      private: row.private,
    };
  }

  private async row() {
    const [row] = await this.db.select().from(pitchForge).where(eq(pitchForge.id, ROW)).limit(1);
    return row ?? null;
  }
}

const view = (row: typeof pitchForge.$inferSelect): ForgeConfigView => ({
  provider: row.provider as 'github' | 'gitea',
  api_url: row.apiUrl,
  owner: row.owner,
  private: row.private,
  has_token: true,
  updated_by: row.updatedBy,
  updated_at: row.updatedAt.toISOString(),
});
