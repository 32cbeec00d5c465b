/**
 * Agents' journals: reflections, decisions, learnings, struggles and notes each agent writes for
 * itself, read by tier (access.ts). Exposes `canReadJournalOf` (the named read retrieval filters
 * journal hits with) and a knowledge source of kind 'journal' (deleted entries come back once as
 * tombstones).
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import type { KnowledgeSource } from '../optimal/index.js';
import type { JournalReader } from './access.js';
import { registerJournalsRoutes } from './routes.js';
import { JournalsService } from './service.js';

export { type JournalReader, mayReadJournal } from './access.js';
export { ENTRY_TYPES, type EntryType } from './rules.js';

export type { JournalEntry } from './service.js';
export { JournalsService };

export interface JournalsModule extends ModuleFace {
  service: JournalsService;
  /** Whether `reader` may read the journal of the agent `authorId` (UUID or slug) names. */
  canReadJournalOf(reader: JournalReader, authorId: string): Promise<boolean>;
  knowledgeSource: KnowledgeSource;
}

export interface JournalsDeps {
  agents: Pick<AgentsModule, 'service'>;
}

export function createJournalsModule({ platform, deps }: ModuleInput<JournalsDeps>): JournalsModule {
  const agents = deps.agents.service;
  const service = new JournalsService(platform.database.db, platform.clock, agents);
  return {
    service,
    canReadJournalOf: (reader, authorId) => service.canReadJournalOf(reader, authorId),
    knowledgeSource: { kind: 'journal', changedSince: (after, limit) => service.changedSince(after, limit) },
    registerRoutes: (app) => registerJournalsRoutes(app, service, (identity) => agents.actorOf(identity)),
  };
}
