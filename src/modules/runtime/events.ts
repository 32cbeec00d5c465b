/** The events the agent runtime raises (declared on the platform bus's event map). */

export interface AgentLifecycle {
  agent_id: string;
  task_id: string | null;
  /** The run (transcript) the event is about. */
  run_id?: string;
  /** Free text: why it stopped, what it waits for, the error message. */
  detail: string | null;
}

/** A chunk of an agent's output. */
export interface AgentOutput {
  agent_id: string;
  task_id: string | null;
  /** The run the chunk belongs to, and its place in that run's transcript (null past the cap). */
  run_id: string;
  seq: number | null;
  stream: 'stdout' | 'stderr';
  text: string;
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /** Agent runtime lifecycle transitions (/ws/agents/{agent_id}). */
    AGENT_SPAWNED: AgentLifecycle;
    AGENT_STOPPED: AgentLifecycle;
    AGENT_WAITING: AgentLifecycle;
    AGENT_RESUMED: AgentLifecycle;
    AGENT_ERROR: AgentLifecycle;
    /** A chunk of an agent's output (/ws/agents/{agent_id}). */
    AGENT_OUTPUT: AgentOutput;
  }
}
