/**
 * An agent's unread A2A as one SQL expression (a JSON value), for a caller that reads it in the
 * same statement as other things (the gateway's context briefing): the unread total, the requests
 * it has not answered, and the latest conversations with unread messages (most recently active
 * first) with the other participant's slug. The counts are the inbox's own queries (store.ts).
 */
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { agentSlugOf } from '../agents/index.js';
import { a2aConversations } from './schema.js';
import { type AgentKey, type Handle, unansweredRequestsQuery, unreadByConversationQuery } from './store.js';

export interface UnreadSummary {
  total_unread: number;
  unanswered_requests: number;
  conversations: {
    id: string;
    /** The other participant's slug (its id if it left the roster). */
    with: string;
    topic: string | null;
    task_id: string | null;
    unread: number;
  }[];
}

/**
 * The unread summary of `agentId` as a JSON-valued SQL expression, listing at most `limit`
 * conversations (either may be a placeholder, for a prepared statement).
 */
export function unreadSummarySql(
  db: Handle,
  agentId: AgentKey,
  limit: number | Placeholder,
): SQL<UnreadSummary> {
  const c = a2aConversations;
  const other = sql`case when ${c.participantA} = ${agentId} then ${c.participantB} else ${c.participantA} end`;
  return sql<UnreadSummary>`(with unread as (${unreadByConversationQuery(db, agentId)})
    select json_build_object(
      'total_unread', (select coalesce(sum(n), 0)::int from unread),
      'unanswered_requests', (select n::int from (${unansweredRequestsQuery(db, agentId)}) as requests),
      'conversations', coalesce((
        select json_agg(json_build_object('id', id, 'with', with_slug, 'topic', topic, 'task_id', task_id, 'unread', unread)
                        order by updated_at desc, id desc)
        from (
          select ${c.id} as id, coalesce(${agentSlugOf(other)}, (${other})::text) as with_slug, ${c.topic} as topic,
                 ${c.taskId} as task_id, unread.n::int as unread, ${c.updatedAt} as updated_at
          from unread
          join ${c} on ${c.id} = unread.conversation_id
          order by ${c.updatedAt} desc, ${c.id} desc
          limit ${limit}
        ) as latest), '[]'::json)))`;
}
