/**
 * The live events of the spec's Events table and their payloads, declared once. Producers publish
 * them on the platform bus (`platform.bus.publish('NOTIFICATION_SENT', {...})`, after commit when
 * inside a transaction); the bridge forwards each to its socket as `{ type, ...data }`.
 */
declare module '../../platform/bus/types.js' {
  interface EventMap {
    /**
     * A task was opened or changed (claim, transition, edit, reassignment...), published after the
     * change committed. It wakes the dispatcher, and /ws/system carries it so the panel's inbox,
     * task lists and kanban update live (ids and states only, no task content).
     */
    TASK_CHANGED: { task_id: string; status: string; assigned_to: string | null; change: string };
    /** A provider hit a rate limit or overload and was parked (/ws/system, amber banner). */
    RATE_LIMIT_HIT: { provider: string; affected_agents: string[]; retry_after_seconds: number | null };
    /** A parked provider recovered; queued work resumes (/ws/system). */
    RATE_LIMIT_LIFTED: { provider: string; resumed_agents: string[] };
    /** A fresh token-usage and cost snapshot (/ws/system). */
    USAGE_SNAPSHOT: {
      period: 'live';
      totals: { input_tokens: number; output_tokens: number };
      cost_usd: number;
      by_agent: {
        agent_id: string;
        input_tokens: number;
        output_tokens: number;
        cost_usd: number;
        model: string | null;
      }[];
    };
    /** An agent-to-agent message was persisted (/ws/system as `a2a.message`, body capped by the bridge). */
    A2A_MESSAGE_SENT: {
      conversation_id: string;
      message_id: string;
      task_id: string | null;
      sender_slug: string;
      recipient_slug: string;
      body: string;
    };
    /** A notification was sent to an agent (/ws/notifications/{recipient_id}). */
    NOTIFICATION_SENT: {
      notification_id: string;
      recipient_id: string;
      type: string;
      priority: string;
      subject: string;
      ack_required: boolean;
    };
    /** A notification was acknowledged by its recipient (/ws/notifications/{recipient_id}). */
    NOTIFICATION_ACKED: { notification_id: string; recipient_id: string };
    /** Agent runtime lifecycle transitions (/ws/agents/{agent_id}). */
    AGENT_SPAWNED: AgentLifecycle;
    AGENT_STOPPED: AgentLifecycle;
    AGENT_WAITING: AgentLifecycle;
    AGENT_RESUMED: AgentLifecycle;
    AGENT_ERROR: AgentLifecycle;
    /** A chunk of an agent's output (/ws/agents/{agent_id}). */
    AGENT_OUTPUT: {
      agent_id: string;
      task_id: string | null;
      /** The run the chunk belongs to, and its place in that run's transcript (null past the cap). */
      run_id: string;
      seq: number | null;
      stream: 'stdout' | 'stderr';
      text: string;
    };
    /** An operator maintenance pause was set or lifted (/ws/system): the scope's row as GET shows it. */
    MAINTENANCE_PAUSE_CHANGED: MaintenancePauseChanged;
  }
}

export interface AgentLifecycle {
  agent_id: string;
  task_id: string | null;
  /** The run (transcript) the event is about. */
  run_id?: string;
  /** Free text: why it stopped, what it waits for, the error message. */
  detail: string | null;
}

/** The state of one maintenance-pause scope, as `GET /api/maintenance-pause` lists it. */
export interface MaintenancePauseChanged {
  scope: 'dispatch' | 'board_programs' | 'engines';
  paused: boolean;
  mode: 'drain' | 'kill' | null;
  /** Identity id of whoever set the pause (the CEO). */
  paused_by: string | null;
  reason: string | null;
  /** ISO-8601 UTC. */
  paused_at: string | null;
  expires_at: string | null;
  /** First failed read of the stored state since the last good one on the publishing replica. */
  read_degraded_since: string | null;
}
