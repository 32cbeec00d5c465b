/**
 * `gaffer demo`: the service with the built-in scripted company at work. It creates (once) a sample
 * bare repository under the data directory, starts the service with the dispatcher on and the
 * `scripted` runtime (configuration overrides, not the environment), registers the sample as a
 * project on the `local` forge, and creates one sample task as the CEO for the main PM. The
 * scripted agents — a simulation, every line they print starts with `[scripted]` — then plan,
 * delegate, develop, QA, document, review and merge it up the chain until it awaits the CEO.
 * The developers' work is an experiment (once per data directory): half of their tasks go to a
 * careful scripted model, half to a hasty one, side by side on the Workforce page.
 */
import { createServer } from 'node:net';
import type { Config } from '../config.js';
import { CEO_IDENTITY, expiringToken, loginUrl, staticToken } from '../platform/http/auth/index.js';
import { type RunningServer, startServer } from '../server.js';
import { ensureSampleRepository } from './sample-repo.js';
import { approveCommand, type ReadApi, requestChangesCommand, watchTaskMoves } from './task-moves.js';

export const DEMO_PROJECT_SLUG = 'sample-shop';
export const DEMO_TASK_TITLE = 'Health endpoint for the sample shop';

/** The demo's experiment: the developers split between two scripted models with a character. */
export const DEMO_EXPERIMENT = {
  role: 'developer',
  a: { model: 'scripted-careful' },
  b: { model: 'scripted-hasty' },
  share_b: 50,
  max_tasks: 20,
} as const;

export interface RunningDemo {
  server: RunningServer;
  projectId: string;
  taskId: string;
  loginUrl: string;
}

/** A port free right now: the gateway URL handed to agents is fixed when the app is built. */
async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, resolve);
  });
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** The configuration of a demo: the dispatcher on, the scripted runtime, a quick dispatch interval. */
export async function demoConfig(base: Config): Promise<Config> {
  const port = base.port === 0 && !base.publicUrl ? await freePort(base.host) : base.port;
  return {
    ...base,
    port,
    dispatchEnabled: true,
    agentRuntime: 'scripted',
    agentProvider: 'scripted',
    dispatchIntervalSeconds: Math.min(base.dispatchIntervalSeconds, 5),
  };
}

export async function startDemo(base: Config): Promise<RunningDemo> {
  const config = await demoConfig(base);
  const remote = await ensureSampleRepository(config.dataDir);
  const server = await startServer(config);
  try {
    const headers = { 'x-agent-token': staticToken(server.platform.secret, CEO_IDENTITY) };
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      return { status: response.statusCode, body: response.json() as Record<string, unknown> };
    };
    let project = await call('GET', `/api/projects/${DEMO_PROJECT_SLUG}`);
    if (project.status === 404) {
      project = await call('POST', '/api/projects', {
        slug: DEMO_PROJECT_SLUG,
        name: 'Sample shop',
        git_url: remote,
        git_provider: 'local',
      });
    }
    if (project.status >= 300)
      throw new Error(`registering the sample project: ${JSON.stringify(project.body)}`);
    const projectId = project.body.id as string;
    const experiments = await call('GET', '/api/workforce/experiments');
    if ((experiments.body.experiments as unknown[]).length === 0) {
      const experiment = await call('POST', '/api/workforce/experiments', DEMO_EXPERIMENT);
      if (experiment.status !== 201)
        throw new Error(`starting the demo's experiment: ${JSON.stringify(experiment.body)}`);
    }
    const task = await call('POST', '/api/tasks', {
      title: DEMO_TASK_TITLE,
      description:
        'Add GET /health to the sample shop answering 200 with the service version, so load balancers can probe it.',
      acceptance_criteria: ['GET /health answers 200 with the version'],
      team: 'main_pm',
      task_type: 'planning',
      nature: 'technical',
      complexity: 'medium',
      project_id: projectId,
      assigned_to: 'main-pm',
    });
    if (task.status !== 201) throw new Error(`creating the sample task: ${JSON.stringify(task.body)}`);
    const login = loginUrl(
      config.publicUrl ? config : { ...config, publicUrl: server.url },
      server.platform.secret,
      new Date(),
    );
    return { server, projectId, taskId: task.body.id as string, loginUrl: login };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** Reads the demo's own API as the CEO, in-process. */
function readAsCeo(server: RunningServer): ReadApi {
  const headers = { 'x-agent-token': staticToken(server.platform.secret, CEO_IDENTITY) };
  return async (url) => {
    const response = await server.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
}

/** `gaffer demo`: starts the demo, prints where to look and each move, runs until SIGINT/SIGTERM. */
export async function runDemo(base: Config): Promise<number> {
  const demo = await startDemo(base);
  const { server } = demo;
  const print = (line: string) => process.stdout.write(`${line}\n`);
  // Where a browser (a phone, with GAFFER_PUBLIC_URL) opens the panel's pages.
  const panelBase = (base.publicUrl ?? server.url).replace(/\/+$/, '');
  process.stdout.write(
    [
      '',
      `Gaffer demo is running at ${server.url} — the agents are SCRIPTED (a simulation, no AI model is called).`,
      `Open the panel: ${demo.loginUrl}`,
      `Sample project: ${DEMO_PROJECT_SLUG} (${demo.projectId}), a bare repository under ${base.dataDir}/demo`,
      `Sample task: "${DEMO_TASK_TITLE}" (${demo.taskId}), created by the CEO for the main PM.`,
      'Watch it here, on the kanban board and on /ws/agents (every agent line starts with [scripted]): the',
      '  task goes plan → backend cell → develop → QA → docs → PR gate → merged up → awaiting_ceo_approval.',
      `Experiment: the developers' tasks go half to ${DEMO_EXPERIMENT.a.model} (A), half to ${DEMO_EXPERIMENT.b.model} (B);`,
      `  compare the arms on the Workforce page: ${panelBase}/workforce`,
      `API docs: ${server.url}/docs`,
      '',
      'Moves of the sample task and its subtasks (state, agent, verb):',
      '',
    ].join('\n'),
  );
  const moves = watchTaskMoves({
    bus: server.platform.bus,
    read: readAsCeo(server),
    rootTaskId: demo.taskId,
    write: print,
    onAwaitingCeo() {
      const token = expiringToken(server.platform.secret, CEO_IDENTITY, 24 * 60 * 60);
      print(
        [
          '',
          'The sample task awaits the CEO. Review its change in the panel (a phone will do), and approve or send it back there:',
          `  ${panelBase}/tasks/${demo.taskId}/changes`,
          `or approve and merge it from here (the token is the CEO's, valid 24 hours):`,
          `  ${approveCommand(server.url, demo.taskId, token)}`,
          'or send it back for changes (the main PM plans a revision, and it comes round again):',
          `  ${requestChangesCommand(server.url, demo.taskId, token)}`,
          '',
        ].join('\n'),
      );
    },
  });
  const shutdown = (signal: string) => {
    moves.stop();
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  return -1;
}
