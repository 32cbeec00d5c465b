/** The relay credentials, sealed at rest: set both, clear both, read them for a send. */
import { eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import { createSecretBox, type SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/client.js';
import { chatRelayCredentials } from './schema.js';

const ROW_ID = 'telegram';

export interface RelayCredentials {
  botToken: string;
  chatId: string;
}

export class CredentialsStore {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    secret: string,
  ) {
    this.box = createSecretBox(secret, 'chat-relay-credentials');
  }

  async has(): Promise<boolean> {
    const [row] = await this.db
      .select({ id: chatRelayCredentials.id })
      .from(chatRelayCredentials)
      .where(eq(chatRelayCredentials.id, ROW_ID));
    return row !== undefined;
  }

  /** The opened credentials, or null when none are set. */
  async read(): Promise<RelayCredentials | null> {
    const [row] = await this.db
      .select()
      .from(chatRelayCredentials)
      .where(eq(chatRelayCredentials.id, ROW_ID));
    if (!row) return null;
    return {
      botToken: this.box.open(row.botTokenSealed, `${ROW_ID}:bot_token`),
      chatId: this.box.open(row.chatIdSealed, `${ROW_ID}:chat_id`),
    };
  }

  async set(credentials: RelayCredentials, updatedBy: string): Promise<void> {
    const values = {
      botTokenSealed: this.box.seal(credentials.botToken, `${ROW_ID}:bot_token`),
      chatIdSealed: this.box.seal(credentials.chatId, `${ROW_ID}:chat_id`),
      updatedBy,
      updatedAt: this.clock.now(),
    };
    await this.db
      .insert(chatRelayCredentials)
      .values({ id: ROW_ID, ...values })
      .onConflictDoUpdate({ target: chatRelayCredentials.id, set: values });
  }

  async clear(): Promise<void> {
    await this.db.delete(chatRelayCredentials).where(eq(chatRelayCredentials.id, ROW_ID));
  }
}
