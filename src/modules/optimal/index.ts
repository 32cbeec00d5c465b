/**
 * Retrieval over the company's knowledge (/api/optimal): an incremental index of chunks pulled from
 * knowledge sources (the `optimal.index` scheduler loop), searched by full text fused with vector
 * similarity, and retrieval-augmented answers from the caller's routed model. The sources are
 * handed in by the composition root; `findingsKnowledgeSource` and `tasksKnowledgeSource` are the
 * two this module builds itself over named reads of their modules.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { ProvidersModule } from '../providers/index.js';
import type { SettingsModule } from '../settings/index.js';
import { resolveEmbedder } from './embedder.js';
import { INDEX_LOOP, indexNow } from './index-now.js';
import { type IndexerDeps, indexPass } from './indexer.js';
import { registerOptimalRoutes } from './routes.js';
import { OptimalService } from './service.js';
import type { KnowledgeSource, VisibilityFilter } from './types.js';
import { VectorStore } from './vectors.js';

export { chunkText } from './chunking.js';
export { EMBEDDING_SUBJECT } from './embedder.js';
export { INDEX_LOOP } from './index-now.js';
export { fullTextQuery } from './search.js';
export { findingsKnowledgeSource, tasksKnowledgeSource } from './sources.js';
export type { KnowledgeCursor, KnowledgeItem, KnowledgeSource, Reader, VisibilityFilter } from './types.js';
export { OptimalService };

export interface OptimalModule extends ModuleFace {
  service: OptimalService;
  /** Runs an index pass now (waits for one in flight first); never rejects. */
  indexNow(): Promise<void>;
}

export interface OptimalDeps {
  scheduler: Scheduler;
  settings: Pick<SettingsModule, 'service'>;
  providers: Pick<ProvidersModule, 'service'>;
  sources: readonly KnowledgeSource[];
  /**
   * Per source kind, which of its items a reader may see, checked on every search and RAG
   * retrieval (e.g. journals: `canReadJournalOf` of each entry's author). Absent: everyone.
   */
  visibility?: Readonly<Record<string, VisibilityFilter>>;
}

export function createOptimalModule({ platform, deps }: ModuleInput<OptimalDeps>): OptimalModule {
  const { db } = platform.database;
  const vectors = new VectorStore(db);
  const embedder = () =>
    resolveEmbedder({
      providers: deps.providers.service,
      embeddingModel: () => deps.settings.service.get('embedding_model'),
    });
  const indexer: IndexerDeps = {
    db,
    clock: platform.clock,
    log: platform.log,
    sources: deps.sources,
    vectors,
    embedder,
  };
  deps.scheduler.register({
    name: INDEX_LOOP,
    intervalMs: platform.config.optimalIndexIntervalSeconds * 1000,
    firstRunAfterMs: 5_000,
    run: (signal) => indexPass(indexer, signal),
  });
  const service = new OptimalService({
    db,
    clock: platform.clock,
    log: platform.log,
    vectors,
    embedder,
    modelFor: (reader, timeoutMs) =>
      deps.providers.service.clientFor({ id: reader.id, role: reader.role }, timeoutMs),
    ragTimeoutMs: () => platform.config.optimalRagTimeoutSeconds * 1000,
    visibility: deps.visibility ?? {},
    sourceKinds: deps.sources.map((source) => source.kind),
  });
  return {
    service,
    indexNow: () => indexNow(deps.scheduler, platform.log),
    registerRoutes: (app) => registerOptimalRoutes(app, service),
  };
}
