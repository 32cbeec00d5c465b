/** The chat-notification relay: write-only Telegram credentials and the after-commit fan-out of notifications. */
import type { Platform } from '../../platform/context.js';

export class ChatRelayService {
  constructor(readonly platform: Platform) {}
}
