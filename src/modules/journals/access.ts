/**
 * Who reads whose journal (reference C §7.6, taken where it is the stricter of it and the brief):
 * an author always reads their own; the CEO's and the auditor's journals are read only by the CEO
 * and the auditor; the CEO and the auditor read every journal; a PM (cell PM, main PM) reads the
 * journals of the agents of their own team; everyone else reads only their own.
 */
export interface JournalReader {
  id: string;
  role: string;
  team: string | null;
}

export interface JournalAuthor {
  id: string;
  role: string;
  team: string | null;
}

const OVERSEERS = new Set(['ceo', 'auditor']);
const PMS = new Set(['cell_pm', 'main_pm']);

export function mayReadJournal(reader: JournalReader, author: JournalAuthor): boolean {
  if (reader.id === author.id) return true;
  if (OVERSEERS.has(reader.role)) return true;
  if (OVERSEERS.has(author.role)) return false;
  return PMS.has(reader.role) && !!reader.team && reader.team === author.team;
}

/** Whether a reader sees more journals than their own, and whose: every one, or a team's. */
export function readScope(
  reader: JournalReader,
): { kind: 'all' } | { kind: 'team'; team: string } | { kind: 'own' } {
  if (OVERSEERS.has(reader.role)) return { kind: 'all' };
  if (PMS.has(reader.role) && reader.team) return { kind: 'team', team: reader.team };
  return { kind: 'own' };
}
