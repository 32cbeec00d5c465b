/**
 * The chat-notification relay: write-only Telegram credentials, and `relay(notification)`, which
 * sends a notification to the chat in the background when credentials are set and the
 * `telegram_enabled` flag is effective. A relay never fails or delays its producer: errors and
 * timeouts are logged (without the token) and swallowed. `idle()` resolves once in-flight sends settle.
 */
import type { Platform } from '../../platform/context.js';
import type { Logger } from '../../platform/logger.js';
import type { FeatureFlags } from '../settings/index.js';
import { credentialsChange } from './credential-rules.js';
import { CredentialsStore } from './credentials-store.js';
import { scrub, sendTelegramMessage } from './telegram-client.js';
import { type RelayedNotification, telegramText } from './telegram-message.js';

export class ChatRelayService {
  private readonly credentials: CredentialsStore;
  private readonly inFlight = new Set<Promise<void>>();
  /** Where relay failures are logged (the platform's logger). */
  private readonly log: Pick<Logger, 'warn' | 'debug'>;

  constructor(
    private readonly platform: Platform,
    private readonly flags: Pick<FeatureFlags, 'isEnabled'>,
  ) {
    this.credentials = new CredentialsStore(platform.database.db, platform.clock, platform.secret);
    this.log = platform.log;
  }

  /** Whether both credentials are set. */
  hasCredentials(): Promise<boolean> {
    return this.credentials.has();
  }

  /** Sets both credentials or clears both; 400 `credentials_incomplete` for exactly one. */
  async setCredentials(
    botToken: string,
    chatId: string,
    updatedBy: string,
  ): Promise<{ has_credentials: boolean }> {
    const change = credentialsChange(botToken, chatId);
    if (change.action === 'clear') await this.credentials.clear();
    else await this.credentials.set({ botToken: change.botToken, chatId: change.chatId }, updatedBy);
    return { has_credentials: change.action === 'set' };
  }

  /** Whether notifications go to the chat in this process: the flag as booted. */
  get enabled(): boolean {
    return this.flags.isEnabled('telegram_enabled');
  }

  /**
   * Relays one notification in the background; call after the producer's commit. Never throws.
   * `linkOf` finds the panel page it is about, asked only when the message is really sent.
   */
  relay(notification: RelayedNotification, linkOf?: () => Promise<string | null>): void {
    if (!this.enabled) return;
    const send = this.send(notification, linkOf).finally(() => this.inFlight.delete(send));
    this.inFlight.add(send);
  }

  /** Resolves once every relay started so far has settled. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async send(
    notification: RelayedNotification,
    linkOf?: () => Promise<string | null>,
  ): Promise<void> {
    let token = '';
    try {
      const credentials = await this.credentials.read();
      if (!credentials) return;
      token = credentials.botToken;
      const link = (await linkOf?.().catch(() => null)) ?? null;
      await sendTelegramMessage(
        {
          apiUrl: this.platform.config.telegramApiUrl,
          botToken: credentials.botToken,
          chatId: credentials.chatId,
          timeoutMs: this.platform.config.telegramTimeoutMs,
        },
        telegramText({ ...notification, link }),
      );
      this.log.debug({ relay: 'telegram' }, 'notification relayed to the chat');
    } catch (error) {
      const message = error instanceof Error ? error.message : 'unknown error';
      this.log.warn({ relay: 'telegram', reason: scrub(message, token) }, 'chat relay send failed');
    }
  }
}
