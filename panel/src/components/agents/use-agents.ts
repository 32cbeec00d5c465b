/**
 * The roster joined with what runs now: `/api/agents` (role, team, state, current task) and
 * `/api/orchestrator/agents` (the live runs). Agent lifecycle events only reach each agent's own
 * socket, so the roster refetches on TASK_CHANGED (live/invalidation.ts: spawns and stops follow
 * task moves) and asks for the runs again every 15 s while it is open — the page says so.
 */
import { $api } from '../../api/client';
import type { paths } from '../../api/schema';
import { usePollInterval } from '../../live/live';

type Json<P extends keyof paths, M extends 'get'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

export type Agent = Json<'/api/agents', 'get'>['agents'][number];
export type RunningAgent = Json<'/api/orchestrator/agents', 'get'>['agents'][number];
export type AgentRun = Json<'/api/stream/{agent_id}', 'get'>['runs'][number];

/** How often the roster asks which agents run, while open (lifecycle events are per-agent sockets). */
export const RUNS_REFRESH_MS = 15_000;

export function useRunningAgents() {
  return $api.useQuery('get', '/api/orchestrator/agents', undefined, { refetchInterval: RUNS_REFRESH_MS });
}

export function useRoster() {
  const refetchInterval = usePollInterval(30_000);
  const roster = $api.useQuery('get', '/api/agents', undefined, { refetchInterval });
  const running = useRunningAgents();
  const runs = new Map((running.data?.agents ?? []).map((run) => [run.agent_id, run]));
  return { roster, running, agents: roster.data?.agents ?? [], runs };
}

/** One word for what an agent's process is doing: running, waiting, or not running. */
export function runState(run: RunningAgent | undefined): 'running' | 'waiting' | 'not running' {
  if (!run) return 'not running';
  return run.waiting ? 'waiting' : 'running';
}

export const roleLabel = (role: string) => role.replaceAll('_', ' ');
