/** The events of the usage ledger (declared on the platform bus's event map). */

/** A fresh token-usage and cost snapshot. */
export interface UsageSnapshot {
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
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /** A fresh token-usage and cost snapshot (/ws/system). Declared for the live usage feed. */
    USAGE_SNAPSHOT: UsageSnapshot;
  }
}
