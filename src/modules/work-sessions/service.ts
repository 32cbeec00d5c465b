/**
 * Work sessions: an agent's git session on a task — branch, commits, files changed, pull request.
 * At most one session per task is active (a partial unique index; a second start is 409
 * `session_active`). The routes call these methods with the caller as `actor`; the git layer calls
 * them without one, as the system. Task rows are read through tasks' named read taskHolding.
 */

import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Platform } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors.js';
import { branchNameProblem } from '../../platform/git/index.js';
import type { Identity } from '../../platform/http/auth/identity.js';
import { conflict, forbidden, notFound, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { isTerminal } from '../lifecycle/index.js';
import { taskHolding } from '../tasks/index.js';
import {
  type EndStatus,
  fileListProblems,
  isCommitHash,
  LIMITS,
  managesSessions,
  mergeFiles,
  ownsWork,
  type SessionActor,
  type SessionStatus,
  sessionAgentFor,
} from './rules.js';
import { workSessions } from './schema.js';

export type WorkSession = typeof workSessions.$inferSelect;

/** Finds the roster agent an identity names (by UUID or slug); the agents module provides it. */
export interface AgentLookup {
  resolve(idOrSlug: string): Promise<{ id: string } | null>;
}

export interface StartSession {
  taskId: string;
  branch: string;
  baseBranch?: string | null;
  /** Whose session it is; defaults to the actor when it owns the task, else the task's claimant or assignee. */
  agentId?: string;
}

export interface SessionListQuery {
  taskId?: string;
  agentId?: string;
  status?: SessionStatus;
  limit?: number;
  offset?: number;
}

export interface SessionPage {
  sessions: WorkSession[];
  total: number;
  limit: number;
  offset: number;
}

export class WorkSessionsService {
  constructor(
    readonly platform: Platform,
    private readonly agents: AgentLookup,
  ) {}

  private get db(): Db {
    return this.platform.database.db;
  }

  /** The caller as a session actor: its role and the roster agent behind it, if any. */
  async actorFor(identity: Pick<Identity, 'id' | 'role'>): Promise<SessionActor> {
    const agent = await this.agents.resolve(identity.id);
    return { role: identity.role, agentId: agent?.id ?? null };
  }

  async list(query: SessionListQuery = {}): Promise<SessionPage> {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const filters: SQL[] = [];
    if (query.taskId) filters.push(eq(workSessions.taskId, query.taskId));
    if (query.agentId) filters.push(eq(workSessions.agentId, query.agentId));
    if (query.status) filters.push(eq(workSessions.status, query.status));
    const where = filters.length > 0 ? and(...filters) : undefined;
    const [{ total } = { total: 0 }] = await this.db
      .select({ total: count() })
      .from(workSessions)
      .where(where);
    const sessions = await this.db
      .select()
      .from(workSessions)
      .where(where)
      .orderBy(desc(workSessions.startedAt), desc(workSessions.id))
      .limit(limit)
      .offset(offset);
    return { sessions, total, limit, offset };
  }

  /** 404 `not_found` when there is no such session. */
  async get(id: string): Promise<WorkSession> {
    const [row] = isUuid(id)
      ? await this.db.select().from(workSessions).where(eq(workSessions.id, id)).limit(1)
      : [];
    if (!row) throw notFound(`there is no work session ${id}`);
    return row;
  }

  /** The task's active session, if it has one. */
  async activeFor(taskId: string): Promise<WorkSession | null> {
    const [row] = await this.db
      .select()
      .from(workSessions)
      .where(and(eq(workSessions.taskId, taskId), eq(workSessions.status, 'active')))
      .limit(1);
    return row ?? null;
  }

  /**
   * Opens a session. 422 for a bad branch name or an unknown agent, 404 for no task, 409
   * `task_terminal` for a completed or cancelled task, 403 when the actor neither owns the task
   * nor manages sessions, 409 `session_active` when the task already has an active session.
   */
  async start(input: StartSession, actor?: SessionActor): Promise<WorkSession> {
    const branch = input.branch.trim();
    const baseBranch = input.baseBranch?.trim() || null;
    const problems = [
      ...namedProblem('body.branch', branchNameProblem(branch)),
      ...(baseBranch ? namedProblem('body.base_branch', branchNameProblem(baseBranch)) : []),
    ];
    if (problems.length > 0) throw unprocessable('the session is invalid', problems);
    const task = await this.task(input.taskId);
    if (isTerminal(task.status)) {
      throw conflict('task_terminal', `task ${task.id} is ${task.status}; no new session can start on it`);
    }
    if (actor && !managesSessions(actor)) {
      const own = ownsWork(actor, task) && (!input.agentId || input.agentId === actor.agentId);
      if (!own)
        throw forbidden('only the task’s assignee or active claimant, the CEO or a PM may start its session');
    }
    const agentId = sessionAgentFor(input.agentId, actor, task);
    if (!agentId || !(await this.agents.resolve(agentId))) {
      throw unprocessable('the session needs a known agent', [
        {
          field: 'body.agent_id',
          message: agentId ? 'is not a known agent' : 'is required: the task has no owner',
        },
      ]);
    }
    try {
      const [row] = await this.db
        .insert(workSessions)
        .values({ taskId: task.id, agentId, branch, baseBranch, startedAt: this.platform.clock.now() })
        .returning();
      return row!;
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw unprocessable('the session needs a known agent', [
          { field: 'body.agent_id', message: 'is not a known agent' },
        ]);
      }
      if (!isUniqueViolation(error)) throw error;
      const active = await this.activeFor(task.id);
      throw conflict('session_active', `task ${task.id} already has an active work session`, {
        active_session_id: active?.id ?? null,
      });
    }
  }

  /**
   * Records a commit on an active session and adds its files to files_changed (each once). The
   * same hash twice is recorded once. 422 for a bad hash, message or path; 409 `session_not_active`.
   */
  async recordCommit(
    sessionId: string,
    commit: { hash: string; message: string; files?: string[] },
    actor?: SessionActor,
  ): Promise<WorkSession> {
    const hash = commit.hash.trim().toLowerCase();
    const message = commit.message.trim();
    const problems = [
      ...namedProblem('body.hash', isCommitHash(hash) ? null : 'must be 7 to 40 hexadecimal characters'),
      ...namedProblem(
        'body.message',
        message === '' || message.length > LIMITS.message
          ? `must be 1 to ${LIMITS.message} characters`
          : null,
      ),
      ...fileListProblems(commit.files ?? [], 'body.files'),
    ];
    if (problems.length > 0) throw unprocessable('the commit is invalid', problems);
    return this.changeActive(sessionId, actor, (session) => ({
      commits: session.commits.some((c) => c.hash === hash)
        ? session.commits
        : [...session.commits, { hash, message, at: this.platform.clock.now().toISOString() }],
      filesChanged: mergeFiles(session.filesChanged, commit.files ?? []),
    }));
  }

  /** Records (or replaces) the session's pull request. 422 for a bad number or URL; 409 when not active. */
  async recordPr(
    sessionId: string,
    pr: { prNumber: number; prUrl: string },
    actor?: SessionActor,
  ): Promise<WorkSession> {
    const prUrl = pr.prUrl.trim();
    const problems = [
      ...namedProblem(
        'body.pr_number',
        Number.isInteger(pr.prNumber) && pr.prNumber >= 1 ? null : 'must be a positive integer',
      ),
      ...namedProblem(
        'body.pr_url',
        isWebUrl(prUrl) ? null : `must be an http(s) URL of at most ${LIMITS.prUrl} characters`,
      ),
    ];
    if (problems.length > 0) throw unprocessable('the pull request is invalid', problems);
    return this.changeActive(sessionId, actor, () => ({ prNumber: pr.prNumber, prUrl }));
  }

  /** Ends an active session as completed or abandoned. 409 `session_not_active` when it already ended. */
  async end(sessionId: string, status: EndStatus, actor?: SessionActor): Promise<WorkSession> {
    if (status !== 'completed' && status !== 'abandoned') {
      throw unprocessable('the end status is invalid', [
        { field: 'body.status', message: 'must be completed or abandoned' },
      ]);
    }
    return this.changeActive(sessionId, actor, () => ({ status, endedAt: this.platform.clock.now() }));
  }

  /** Locks the session row, checks it is active and the actor may work it, then applies the change. */
  private async changeActive(
    sessionId: string,
    actor: SessionActor | undefined,
    change: (session: WorkSession) => Partial<typeof workSessions.$inferInsert>,
  ): Promise<WorkSession> {
    await this.get(sessionId);
    return this.db.transaction(async (tx) => {
      const [session] = await tx
        .select()
        .from(workSessions)
        .where(eq(workSessions.id, sessionId))
        .for('update');
      if (!session) throw notFound(`there is no work session ${sessionId}`);
      if (actor && !managesSessions(actor)) {
        const task = await this.task(session.taskId, tx);
        if (!ownsWork(actor, task, session.agentId)) {
          throw forbidden(
            'only the session’s agent, the task’s owner, the CEO or a PM may change this session',
          );
        }
      }
      if (session.status !== 'active') {
        throw conflict('session_not_active', `work session ${session.id} has ended (${session.status})`);
      }
      const [row] = await tx
        .update(workSessions)
        .set(change(session))
        .where(eq(workSessions.id, session.id))
        .returning();
      return row!;
    });
  }

  private async task(taskId: string, db: Db = this.db) {
    const task = isUuid(taskId) ? await taskHolding(db, taskId) : null;
    if (!task) throw notFound(`there is no task ${taskId}`);
    return task;
  }
}

const namedProblem = (field: string, message: string | null) => (message ? [{ field, message }] : []);

function isWebUrl(value: string): boolean {
  if (value.length > LIMITS.prUrl) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
