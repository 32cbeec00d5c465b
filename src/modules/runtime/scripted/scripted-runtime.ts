/**
 * The `scripted` agent runtime: built-in simulated agents that run in-process and drive the REAL
 * gateway over HTTP as the agent they were spawned as (spec.gatewayUrl, spec.token). A run starts
 * with `give_me_work`, works its task (the dispatcher's pick, else the one give_me_work offered)
 * with its role's deterministic step until the task leaves its hands or waits on others, asks for
 * work once more and reports `i_am_idle` when there is none — at most MAX_CALLS gateway calls. It
 * is clearly a simulation: it identifies itself as provider `scripted` and every line it prints
 * starts with `[scripted]`.
 */
import { gatewayRouteOf } from '../../lifecycle/index.js';
import type { AgentRuntime, ExitInfo, RunIo, RunningAgent, SpawnSpec, StopOptions } from '../contract.js';
import { characterOf, usageLine } from './characters.js';
import { ScriptedGatewayClient, ScriptStopped } from './gateway-client.js';
import { ROLE_STEPS } from './role-scripts.js';

/** Gateway calls one run makes at most. */
export const MAX_CALLS = 40;
/** Steps on its task one run takes at most (each re-reads the task). */
const MAX_STEPS = 12;

export interface ScriptedRuntimeOptions {
  now?: () => Date;
}

export class ScriptedRuntime implements AgentRuntime {
  readonly kind = 'scripted' as const;
  private readonly now: () => Date;

  constructor(options: ScriptedRuntimeOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  async spawn(spec: SpawnSpec, io: RunIo): Promise<RunningAgent> {
    if (spec.provider !== 'scripted')
      throw new Error(
        `the scripted runtime starts only its own agents (provider "scripted"), not "${spec.provider}"`,
      );
    const route = gatewayRouteOf(spec.agent.role);
    if (!route) throw new Error(`no scripted program for the ${spec.agent.role} role`);
    if (!/^https?:\/\//.test(spec.gatewayUrl))
      throw new Error('the scripted agent needs an http gateway URL');
    const abort = new AbortController();
    const client = new ScriptedGatewayClient(spec, io, abort.signal, route);
    let stopRequest: StopOptions | null = null;
    const startedAt = this.now();

    const character = characterOf(spec.model);
    const exited: Promise<ExitInfo> = runScript(client, spec, io.runId).then(
      (summary): ExitInfo => {
        // The run's token use, as its model's character declares it (none for the plain agents).
        const usage = character ? usageLine(character) : null;
        if (usage) io.output('stdout', usage);
        return {
          outcome: 'exited',
          code: 0,
          signal: null,
          detail: `scripted agent finished: ${summary}`,
          endedAt: this.now(),
        };
      },
      (error: unknown): ExitInfo => {
        if (stopRequest) {
          return {
            outcome: stopRequest.graceful ? 'stopped' : 'killed',
            code: null,
            signal: stopRequest.graceful ? 'SIGTERM' : 'SIGKILL',
            detail: `scripted agent ${stopRequest.graceful ? 'stopped' : 'killed'} on request`,
            endedAt: this.now(),
          };
        }
        const message = (error as Error).message ?? String(error);
        client.say(`failed: ${message}`);
        return {
          outcome: 'failed',
          code: 1,
          signal: null,
          detail: `scripted agent failed: ${message}`,
          endedAt: this.now(),
        };
      },
    );

    return {
      agentId: spec.agent.id,
      taskId: spec.taskId,
      runId: io.runId,
      kind: 'scripted',
      startedAt,
      exited,
      async stop(options: StopOptions) {
        stopRequest ??= options;
        if (!options.graceful) stopRequest = options;
        abort.abort(new ScriptStopped());
        return exited;
      },
    };
  }
}

/** The run: find work, step through it, go idle. Answers a one-line summary. */
async function runScript(client: ScriptedGatewayClient, spec: SpawnSpec, runId: string): Promise<string> {
  const { agent } = spec;
  client.say(
    `simulated ${agent.role} agent (runtime scripted, provider scripted — no model involved${spec.model ? `; plays model ${spec.model}` : ''}) starting` +
      (spec.taskId ? ` on task ${spec.taskId.slice(0, 8)}` : ''),
  );
  const step = ROLE_STEPS[agent.role];
  const offered = await client.verb('give_me_work');
  const focus = spec.taskId ?? offered.task_id;
  if (!step || !focus) {
    if (!step) client.say(`no scripted steps for the ${agent.role} role`);
    if (offered.status === 'idle') await client.verb('i_am_idle');
    return 'nothing to do';
  }
  let moves = 0;
  for (let i = 0; i < MAX_STEPS && client.calls < MAX_CALLS; i++) {
    const task = await client.task(focus);
    if (!(await step({ client, spec, runId }, task))) break;
    moves++;
  }
  const after = await client.task(focus);
  const again = await client.verb('give_me_work');
  if (again.status === 'idle') await client.verb('i_am_idle');
  const summary = `${moves} step(s) on ${focus.slice(0, 8)}, now ${after.status}; ${client.calls} gateway calls`;
  client.say(`done: ${summary}`);
  return summary;
}
