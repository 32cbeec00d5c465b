/** The events the agent-to-agent module raises (declared on the platform bus's event map). */

export interface A2aMessageSent {
  conversation_id: string;
  message_id: string;
  task_id: string | null;
  sender_slug: string;
  recipient_slug: string;
  body: string;
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /** An agent-to-agent message was persisted (/ws/system as `a2a.message`, body capped by the bridge). */
    A2A_MESSAGE_SENT: A2aMessageSent;
  }
}
