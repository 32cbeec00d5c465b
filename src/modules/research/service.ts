/**
 * Web research for agents: a search through the configured provider (none configured → empty
 * results, `provider: null`, never an error) and a guarded page fetch. Each call counts against the
 * caller's UTC-daily quota (setting `research_daily_quota_per_agent`) and is recorded (who, kind,
 * provider, how many results) — the record is both the quota count and the audit list.
 */
import { and, count, desc, eq, gte, lte } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { Identity } from '../../platform/http/auth/index.js';
import { AppError } from '../../platform/http/errors.js';
import type { SettingsService } from '../settings/index.js';
import { fetchPage, PageFetchError } from './page-fetch.js';
import type { ProviderStore } from './provider-store.js';
import { researchQueries } from './schema.js';
import {
  SearchProviderError,
  type SearchProviderName,
  type SearchResult,
  searchWith,
} from './search-providers.js';

export interface SearchResponse {
  query: string;
  provider: SearchProviderName | null;
  answer: string | null;
  results: SearchResult[];
}

export interface FetchResponse {
  url: string;
  content_type: string;
  content: string;
  truncated: boolean;
  bytes: number;
}

export interface ResearchQuery {
  id: number;
  agent_id: string;
  role: string;
  kind: 'search' | 'fetch';
  provider: string | null;
  subject: string;
  result_count: number;
  at: string;
}

export interface ResearchOptions {
  timeoutMs: number;
  allowLoopback: boolean;
}

const DAY_MS = 86_400_000;
const startOfUtcDay = (now: Date): Date => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);

export class ResearchService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: Pick<SettingsService, 'get'>,
    readonly providers: ProviderStore,
    private readonly options: ResearchOptions,
  ) {}

  /**
   * Reserves one call of the caller's daily quota by recording it first, then counting the calls
   * recorded today up to and including it; past the quota the reservation is dropped and the answer
   * is 429 `research_quota_exhausted` (Retry-After: seconds to UTC midnight). Recording before
   * counting keeps concurrent calls from all slipping under the limit together.
   */
  private async reserve(who: Identity, kind: 'search' | 'fetch', subject: string): Promise<number> {
    const quota = await this.settings.get('research_daily_quota_per_agent');
    const now = this.clock.now();
    const dayStart = startOfUtcDay(now);
    const [reserved] = await this.db
      .insert(researchQueries)
      .values({
        agentId: who.id,
        role: who.role,
        kind,
        provider: null,
        subject: subject.slice(0, 2000),
        resultCount: 0,
        at: now,
      })
      .returning({ id: researchQueries.id });
    const id = reserved!.id;
    const [row] = await this.db
      .select({ used: count() })
      .from(researchQueries)
      .where(
        and(
          eq(researchQueries.agentId, who.id),
          gte(researchQueries.at, dayStart),
          lte(researchQueries.id, id),
        ),
      );
    const used = row?.used ?? 0;
    if (used <= quota) return id;
    await this.release(id);
    const error = new AppError(
      429,
      'research_quota_exhausted',
      `${who.id} has used its ${quota} research calls for today (UTC)`,
      { quota, used: used - 1 },
      'Wait for UTC midnight (Retry-After), or ask the CEO to raise research_daily_quota_per_agent.',
    );
    error.retryAfterSeconds = Math.max(1, Math.ceil((dayStart.getTime() + DAY_MS - now.getTime()) / 1000));
    throw error;
  }

  /** Drops a reservation: a call that failed or was refused does not count. */
  private async release(id: number): Promise<void> {
    await this.db.delete(researchQueries).where(eq(researchQueries.id, id));
  }

  private async settle(
    id: number,
    values: { provider?: string | null; subject?: string; resultCount: number },
  ) {
    await this.db
      .update(researchQueries)
      .set({ ...values, ...(values.subject ? { subject: values.subject.slice(0, 2000) } : {}) })
      .where(eq(researchQueries.id, id));
  }

  /** Runs `work` on a reserved call; the reservation is dropped when it throws. */
  private async reserved<T>(
    who: Identity,
    kind: 'search' | 'fetch',
    subject: string,
    work: (id: number) => Promise<T>,
  ): Promise<T> {
    const id = await this.reserve(who, kind, subject);
    try {
      return await work(id);
    } catch (error) {
      await this.release(id);
      throw error;
    }
  }

  async search(who: Identity, query: string, maxResults: number | undefined): Promise<SearchResponse> {
    return this.reserved(who, 'search', query, async (id) => {
      const cap = await this.settings.get('research_max_results');
      const wanted = Math.min(maxResults ?? cap, cap);
      const configured = await this.providers.read();
      if (!configured) return { query, provider: null, answer: null, results: [] };
      let answer: Awaited<ReturnType<typeof searchWith>>;
      try {
        answer = await searchWith({ ...configured, timeoutMs: this.options.timeoutMs }, query, wanted);
      } catch (error) {
        if (error instanceof SearchProviderError)
          throw new AppError(502, 'research_provider_failed', error.message);
        throw error;
      }
      await this.settle(id, { provider: configured.provider, resultCount: answer.results.length });
      return { query, provider: configured.provider, ...answer };
    });
  }

  async fetch(who: Identity, url: string, maxChars: number | undefined): Promise<FetchResponse> {
    return this.reserved(who, 'fetch', url, async (id) => {
      const maxBytes = await this.settings.get('research_fetch_max_bytes');
      try {
        const page = await fetchPage(
          url,
          { maxBytes, timeoutMs: this.options.timeoutMs, allowLoopback: this.options.allowLoopback },
          maxChars ?? maxBytes,
        );
        await this.settle(id, { subject: page.url, resultCount: 1 });
        return page;
      } catch (error) {
        if (error instanceof PageFetchError) throw new AppError(error.status, error.code, error.message);
        throw error;
      }
    });
  }

  /** The recorded calls, newest first; optionally one agent's. */
  async history(limit: number, agentId?: string): Promise<ResearchQuery[]> {
    const rows = await this.db
      .select()
      .from(researchQueries)
      .where(agentId ? eq(researchQueries.agentId, agentId) : undefined)
      .orderBy(desc(researchQueries.id))
      .limit(limit);
    return rows.map((row) => ({
      id: row.id,
      agent_id: row.agentId,
      role: row.role,
      kind: row.kind as 'search' | 'fetch',
      provider: row.provider,
      subject: row.subject,
      result_count: row.resultCount,
      at: row.at.toISOString(),
    }));
  }
}
