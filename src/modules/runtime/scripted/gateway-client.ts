/**
 * The scripted agents' HTTP client: calls the REAL gateway of a running Gaffer (spec.gatewayUrl)
 * as the agent it was spawned as — X-Agent-ID/Role/Team and the expiring X-Agent-Token — and
 * prints one `[scripted]` line per call to the run's output, so the transcript and /ws/agents show
 * what the simulated agent did. It also reads tasks through the public REST API, as an agent may.
 */
import type { RunIo, SpawnSpec } from '../contract.js';

/** The gateway envelope, as far as the scripts read it. */
export interface Envelope {
  ok: boolean;
  status: string;
  task_id: string | null;
  next: string | null;
  current_state: string | null;
  valid_next_verbs: string[];
  error: string | null;
  message?: string;
  reason?: string;
  data?: Record<string, unknown>;
}

/** The fields of a task (GET /api/tasks/{id}) the scripts decide on. */
export interface ScriptTask {
  id: string;
  title: string;
  description: string;
  status: string;
  team: string;
  task_type: string;
  parent_task_id: string | null;
  assigned_to: string | null;
  active_claimant_id: string | null;
  pr_created: boolean;
  revision_count: number;
  acceptance_criteria: unknown[];
}

/** Raised when the run is stopped: the script ends without another call. */
export class ScriptStopped extends Error {
  constructor() {
    super('stopped');
    this.name = 'ScriptStopped';
  }
}

/** The line prefix every scripted agent prints: these agents are a simulation, never a model. */
export const SCRIPTED_PREFIX = '[scripted]';

export class ScriptedGatewayClient {
  /** Verb and do-tool calls made so far (the scripts stop at a bound). */
  calls = 0;
  private readonly headers: Record<string, string>;
  private readonly base: string;

  constructor(
    private readonly spec: SpawnSpec,
    private readonly io: RunIo,
    private readonly signal: AbortSignal,
    readonly route: string,
  ) {
    const { agent } = spec;
    this.base = spec.gatewayUrl.replace(/\/+$/, '');
    this.headers = {
      'content-type': 'application/json',
      'x-agent-id': agent.id,
      'x-agent-role': agent.role,
      ...(agent.team ? { 'x-agent-team': agent.team } : {}),
      'x-agent-token': spec.token,
    };
  }

  /** Prints one `[scripted] <slug>: …` line. */
  say(text: string): void {
    this.io.output('stdout', `${SCRIPTED_PREFIX} ${this.spec.agent.slug}: ${text}\n`);
  }

  /** POST /api/v1/flow/{own route}/{verb}. */
  verb(verb: string, body: Record<string, unknown> = {}): Promise<Envelope> {
    return this.call(`/api/v1/flow/${this.route}/${verb}`, verb, body);
  }

  /** POST /api/v1/do {tool, …}. */
  tool(tool: string, body: Record<string, unknown>): Promise<Envelope> {
    return this.call('/api/v1/do', `do/${tool}`, { tool, ...body });
  }

  /** GET /api/tasks/{id}. */
  async task(id: string): Promise<ScriptTask> {
    return (await this.get(`/api/tasks/${id}`)) as ScriptTask;
  }

  /** The direct subtasks of a task. */
  async subtasks(id: string): Promise<ScriptTask[]> {
    const page = (await this.get(`/api/tasks?parent_task_id=${id}&limit=200`)) as { tasks: ScriptTask[] };
    return page.tasks;
  }

  /** The task's review findings (its ledger). */
  async findings(taskId: string): Promise<{ id: string; status: string }[]> {
    const ledger = (await this.get(`/api/tasks/${taskId}/findings`)) as {
      findings: { id: string; status: string }[];
    };
    return ledger.findings;
  }

  private async get(path: string): Promise<unknown> {
    this.checkStopped();
    const response = await fetch(`${this.base}${path}`, { headers: this.headers, signal: this.signal });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  }

  private async call(path: string, name: string, body: Record<string, unknown>): Promise<Envelope> {
    this.checkStopped();
    this.calls++;
    const task = typeof body.task_id === 'string' ? ` task ${body.task_id.slice(0, 8)}` : '';
    const response = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify(body),
      signal: this.signal,
    });
    if (!response.ok) {
      const text = await response.text();
      this.say(`${name}${task} → HTTP ${response.status}`);
      throw new Error(`${name} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
    }
    const envelope = (await response.json()) as Envelope;
    const state = envelope.current_state ? ` [${envelope.current_state}]` : '';
    this.say(
      envelope.ok
        ? `${name}${task} → ${envelope.status}${state}${envelope.next ? `; next ${envelope.next}` : ''}`
        : `${name}${task} → rejected ${envelope.error} (${envelope.reason ?? ''}): ${envelope.message ?? ''}`,
    );
    return envelope;
  }

  private checkStopped(): void {
    if (this.signal.aborted) throw new ScriptStopped();
  }
}
