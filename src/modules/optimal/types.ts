/**
 * What the retrieval index pulls its content from: knowledge sources (see the contract in
 * CONTRACT-knowledge-source.md). The composition root hands them in, so optimal imports none of
 * the modules that own the content, and they import nothing of optimal: the shape is structural.
 */

/** (updated_at, ref) of the last item seen. */
export interface KnowledgeCursor {
  at: Date;
  ref: string;
}

export interface KnowledgeItem {
  /** 'doc' | 'journal' | 'finding' | 'task' | 'code' … */
  source: string;
  /** Stable id within the source. */
  ref: string;
  project_id: string | null;
  /** Short label used in citations. */
  title: string;
  /** The text to index (plain text / markdown). */
  body: string;
  /** Changes whenever the item changes; tombstones carry the deletion time. */
  updated_at: Date;
  /** True: remove every chunk of (source, ref) from the index. */
  deleted: boolean;
  /** Where the panel/API shows it. */
  url?: string;
}

export interface KnowledgeSource {
  /** Same as item.source. */
  kind: string;
  /** Items changed strictly after `after` in (updated_at, ref) order, oldest first, at most `limit`. */
  changedSince(after: KnowledgeCursor | null, limit: number): Promise<KnowledgeItem[]>;
}

/** Who searches: results are the same for everyone today; the reader is kept for source filters. */
export interface Reader {
  id: string;
  role: string;
  team?: string | undefined;
}

/**
 * Which of these refs of one source the reader may see (a source whose items are not for everyone,
 * e.g. journals with read tiers). Sources without one are visible to every authenticated caller.
 */
export type VisibilityFilter = (reader: Reader, refs: string[]) => Promise<Set<string>>;
