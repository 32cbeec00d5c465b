/** The events the evidence module raises (declared on the platform bus's event map). */

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /**
     * An experiment ended (internal, on every replica): its tasks that go back to the usual route
     * may start at once — the dispatcher lifts the start-failure back-off of the role's agents.
     */
    EXPERIMENT_ENDED: { experiment_id: string; role: string; reason: string };
  }
}

export {};
