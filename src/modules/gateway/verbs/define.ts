/**
 * One gateway verb, defined once beside its handler: its name, its input schema (TypeBox; the
 * handler's `call.input` is typed from it), what it runs, and the facts the rest of the gateway
 * derives from it — the breaker's class, the next-verb suggestions, the remediate of a refused
 * state. Which routes have the verb, its summary and the transitions it makes stay the lifecycle's
 * (VERBS, the state machine as data); a test keeps the two name sets equal.
 */
import type { Static, TObject } from 'typebox';
import type { GatewayRoute, TaskStatus } from '../../lifecycle/index.js';
import type { VerbCall, VerbHandler, VerbResult } from '../context.js';

/**
 * How the circuit breaker treats a verb (or do-tool):
 * - `counted` (the default): its rejections count toward the limits;
 * - `exit`: a graceful exit or a pure read, never limited — the breaker must never block the way out;
 * - `find_work`: never limited, and a success starts a new run (give_me_work, the triages);
 * - `claim`: counted, and a success starts a new run (the verbs that take a task).
 */
export type BreakerClass = 'counted' | 'exit' | 'find_work' | 'claim';

/** What the next-verb suggestion knows of the task in hand, as the caller sees it. */
export interface SuggestFacts {
  readonly route: GatewayRoute;
  readonly status: string;
  readonly prCreated: boolean;
  /** The caller holds the claim. */
  readonly claimedByMe: boolean;
  /** The caller holds the claim or is the assignee. */
  readonly mine: boolean;
}

interface VerbFacts {
  readonly name: string;
  readonly breaker?: BreakerClass;
  /** The windowed limit, when not the default (a verb whose work can fail transiently). */
  readonly breakerLimit?: number;
  /** Offered as a way out in a `circuit_open` remediate, in this order (1 first). */
  readonly exitRank?: number;
  /** The verb a rule-following caller would call next on a task like this (at most one per route). */
  readonly suggestWhen?: (task: SuggestFacts) => boolean;
  /** When the task offers nothing for the caller: look for work with this verb, in this order (1 first). */
  readonly fallbackRank?: number;
  /** A better remediate than "call one of valid_next_verbs" when the task is in a state the verb is not valid from. */
  readonly stateRemediate?: (status: TaskStatus) => string | undefined;
  /** The call may be made from any state (it leaves the task as it is), given its checked body. */
  readonly skipsStateGate?: (body: Readonly<Record<string, unknown>>) => boolean;
}

/** A verb as its author writes it: `run` sees the input typed from `input`. */
export interface VerbDefinition<S extends TObject> extends VerbFacts {
  readonly input: S;
  readonly run: (call: VerbCall<Static<S>>) => Promise<VerbResult>;
}

/** A verb as the gateway runs it, its input already checked against `input`. */
export interface VerbEntry extends VerbFacts {
  readonly input: TObject;
  readonly run: VerbHandler;
}

/**
 * One verb's definition. The runner checks every body against `input` before it calls `run`,
 * which is what makes the one widening below sound.
 */
export function defineVerb<S extends TObject>({ run, ...facts }: VerbDefinition<S>): VerbEntry {
  return { ...facts, run: run as VerbHandler };
}
