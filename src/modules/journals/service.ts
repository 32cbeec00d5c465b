/**
 * Journal entries: an agent writes its own, reads what its tier lets it (see access.ts), deletes
 * its own (a tombstone retrieval sees once). Entries the reader may not see answer 404, as absent
 * ones do, so their existence never leaks; an agent's whole journal answers 403 (the roster is
 * public, the journal is not).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { AppError, forbidden, notFound, unprocessable } from '../../platform/http/errors.js';
import type { KnowledgeCursor, KnowledgeItem } from '../optimal/index.js';
import { type JournalAuthor, type JournalReader, mayReadJournal, readScope } from './access.js';
import { type EntryType, entryTitle, MIN_CONTENT } from './rules.js';
import { journalEntries } from './schema.js';

/** What the journals need of the roster. */
export interface JournalRoster {
  identify(idOrSlug: string): Promise<(JournalAuthor & { slug: string }) | null>;
  list(filter: { includeRetired: boolean }): Promise<(JournalAuthor & { slug: string })[]>;
}

export interface JournalActor extends JournalReader {
  slug: string;
}

export interface JournalEntry {
  id: string;
  author_id: string;
  author_slug: string;
  entry_type: string;
  content: string;
  task_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewEntry {
  entry_type: EntryType;
  content: string;
  task_id?: string | undefined;
}

export interface EntryFilter {
  author?: string | undefined;
  entry_type?: EntryType | undefined;
  limit: number;
  cursor?: string | undefined;
}

type Row = typeof journalEntries.$inferSelect;

const view = (row: Row): JournalEntry => ({
  id: row.id,
  author_id: row.authorId,
  author_slug: row.authorSlug,
  entry_type: row.entryType,
  content: row.content,
  task_id: row.taskId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const encodeCursor = (row: Row) =>
  Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');

function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(date.getTime())) throw new Error('bad cursor');
    return { at: date, id };
  } catch {
    throw unprocessable('the cursor is not one this list handed out', [
      { field: 'query.cursor', message: 'unknown cursor' },
    ]);
  }
}

const OVERSEER_ROLES = ['ceo', 'auditor'];

export class JournalsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly roster: JournalRoster,
  ) {}

  async write(author: JournalActor, input: NewEntry): Promise<JournalEntry> {
    const content = input.content.trim();
    const least = MIN_CONTENT[input.entry_type];
    if (content.length < least) {
      throw new AppError(
        422,
        'content_too_short',
        `a ${input.entry_type} entry says at least ${least} characters (this one has ${content.length})`,
        { field: 'body.content', minimum: least },
      );
    }
    const now = this.clock.now();
    const [row] = await this.db
      .insert(journalEntries)
      .values({
        id: randomUUID(),
        authorId: author.id,
        authorSlug: author.slug,
        entryType: input.entry_type,
        content,
        taskId: input.task_id ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return view(row!);
  }

  /** One entry; 404 when absent, deleted, or not the reader's to see. */
  async get(reader: JournalReader, id: string): Promise<JournalEntry> {
    return view(await this.visibleRow(reader, id));
  }

  /** Entries newest first, only those the reader may see; 403 when `author` names a journal out of reach. */
  async list(
    reader: JournalReader,
    filter: EntryFilter,
  ): Promise<{ entries: JournalEntry[]; next_cursor: string | null }> {
    const conditions: SQL[] = [isNull(journalEntries.deletedAt)];
    if (filter.author) {
      const author = await this.roster.identify(filter.author);
      if (!author) throw notFound(`there is no agent "${filter.author}"`);
      if (!mayReadJournal(reader, author)) {
        throw forbidden(`a ${reader.role} may not read the journal of ${author.slug}`);
      }
      conditions.push(eq(journalEntries.authorId, author.id));
    } else {
      const scope = readScope(reader);
      if (scope.kind === 'own') conditions.push(eq(journalEntries.authorId, reader.id));
      if (scope.kind === 'team')
        conditions.push(inArray(journalEntries.authorId, await this.teamAuthors(reader)));
    }
    if (filter.entry_type) conditions.push(eq(journalEntries.entryType, filter.entry_type));
    if (filter.cursor) {
      const after = decodeCursor(filter.cursor);
      conditions.push(
        sql`(${journalEntries.createdAt}, ${journalEntries.id}) < (${after.at.toISOString()}::timestamptz, ${after.id})`,
      );
    }
    const rows = await this.db
      .select()
      .from(journalEntries)
      .where(and(...conditions))
      .orderBy(desc(journalEntries.createdAt), desc(journalEntries.id))
      .limit(filter.limit + 1);
    const page = rows.slice(0, filter.limit);
    const last = page.at(-1);
    return {
      entries: page.map(view),
      next_cursor: rows.length > filter.limit && last ? encodeCursor(last) : null,
    };
  }

  /** Deletes one's own entry (a tombstone); 404 when the reader cannot see it, 403 when it is another's. */
  async delete(reader: JournalReader, id: string): Promise<void> {
    const row = await this.visibleRow(reader, id);
    if (row.authorId !== reader.id) throw forbidden('only its author deletes a journal entry');
    const now = this.clock.now();
    await this.db
      .update(journalEntries)
      .set({ deletedAt: now, updatedAt: now })
      .where(eq(journalEntries.id, id));
  }

  /** Whether `reader` may read the journal of the agent `authorId` names (UUID or slug). */
  async canReadJournalOf(reader: JournalReader, authorId: string): Promise<boolean> {
    const author = await this.roster.identify(authorId);
    return !!author && mayReadJournal(reader, author);
  }

  /** Which of the entries `ids` the reader may see (retrieval filters its journal results with it). */
  async visibleEntries(reader: JournalReader, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: journalEntries.id, authorId: journalEntries.authorId })
      .from(journalEntries)
      .where(inArray(journalEntries.id, ids));
    const visible = new Set<string>();
    const verdicts = new Map<string, boolean>();
    for (const row of rows) {
      let may = verdicts.get(row.authorId);
      if (may === undefined) {
        may = await this.canReadJournalOf(reader, row.authorId);
        verdicts.set(row.authorId, may);
      }
      if (may) visible.add(row.id);
    }
    return visible;
  }

  /** Knowledge-source pull: entries changed strictly after `after`, oldest first; deleted ones as tombstones. */
  async changedSince(after: KnowledgeCursor | null, limit: number): Promise<KnowledgeItem[]> {
    const rows = await this.db
      .select()
      .from(journalEntries)
      .where(
        after
          ? sql`(${journalEntries.updatedAt}, ${journalEntries.id}) > (${after.at.toISOString()}::timestamptz, ${after.ref})`
          : undefined,
      )
      .orderBy(asc(journalEntries.updatedAt), asc(journalEntries.id))
      .limit(limit);
    return rows.map((row) => ({
      source: 'journal',
      ref: row.id,
      project_id: null,
      title: entryTitle(row.authorSlug, row.entryType, row.content),
      body: row.deletedAt ? '' : row.content,
      updated_at: row.updatedAt,
      deleted: row.deletedAt !== null,
      url: `/api/journal-entries/${row.id}`,
    }));
  }

  private async visibleRow(reader: JournalReader, id: string): Promise<Row> {
    const [row] = await this.db
      .select()
      .from(journalEntries)
      .where(and(eq(journalEntries.id, id), isNull(journalEntries.deletedAt)))
      .limit(1);
    const author = row ? await this.roster.identify(row.authorId) : null;
    if (!row || !author || !mayReadJournal(reader, author)) throw notFound(`there is no journal entry ${id}`);
    return row;
  }

  /** The authors a PM reads: their own team's agents (never the CEO's or the auditor's), and themselves. */
  private async teamAuthors(reader: JournalReader): Promise<string[]> {
    const team = await this.roster.list({ includeRetired: true });
    const ids = team
      .filter((a) => a.team === reader.team && !OVERSEER_ROLES.includes(a.role))
      .map((a) => a.id);
    return [...new Set([...ids, reader.id])];
  }
}
