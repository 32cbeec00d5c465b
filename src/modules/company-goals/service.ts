/**
 * The company charter: read by anyone, changed by the CEO field by field (a partial update), each
 * change written with its audit row (who, when, which fields, before and after) in one transaction.
 * An update that changes nothing writes nothing.
 */
import { desc, eq } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { companyGoalChanges, companyGoals, type Objective } from './schema.js';

export interface CompanyGoals {
  company_name: string;
  north_star: string;
  objectives: Objective[];
  constraints: string[];
  operating_policy: Record<string, string>;
  brand_voice: string;
  updated_at: string | null;
  updated_by: string | null;
}

export type CompanyGoalsUpdate = Partial<Omit<CompanyGoals, 'updated_at' | 'updated_by'>>;

export interface CompanyGoalChange {
  id: number;
  changed_by: string;
  fields: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  at: string;
}

const ROW_ID = 'company';

const EMPTY: CompanyGoals = {
  company_name: '',
  north_star: '',
  objectives: [],
  constraints: [],
  operating_policy: {},
  brand_voice: '',
  updated_at: null,
  updated_by: null,
};

type Row = typeof companyGoals.$inferSelect;

const view = (row: Row | undefined): CompanyGoals =>
  row
    ? {
        company_name: row.companyName,
        north_star: row.northStar,
        objectives: row.objectives,
        constraints: row.constraints,
        operating_policy: row.operatingPolicy,
        brand_voice: row.brandVoice,
        updated_at: row.updatedAt?.toISOString() ?? null,
        updated_by: row.updatedBy,
      }
    : EMPTY;

const FIELDS = [
  'company_name',
  'north_star',
  'objectives',
  'constraints',
  'operating_policy',
  'brand_voice',
] as const satisfies readonly (keyof CompanyGoalsUpdate)[];

/** Trims text and drops empty optional objective parts, so stored values are what was meant. */
function normalised(update: CompanyGoalsUpdate): CompanyGoalsUpdate {
  const out: CompanyGoalsUpdate = { ...update };
  if (out.company_name !== undefined) out.company_name = out.company_name.trim();
  if (out.north_star !== undefined) out.north_star = out.north_star.trim();
  if (out.brand_voice !== undefined) out.brand_voice = out.brand_voice.trim();
  if (out.constraints) out.constraints = out.constraints.map((c) => c.trim()).filter(Boolean);
  if (out.objectives) {
    out.objectives = out.objectives.map((o) => {
      const objective: Objective = { title: o.title.trim() };
      for (const key of ['detail', 'metric', 'target'] as const) {
        const value = o[key]?.trim();
        if (value) objective[key] = value;
      }
      return objective;
    });
  }
  return out;
}

export class CompanyGoalsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<CompanyGoals> {
    const [row] = await this.db.select().from(companyGoals).where(eq(companyGoals.id, ROW_ID)).limit(1);
    return view(row);
  }

  /** Applies the given fields; answers the charter as it is after. */
  async update(input: CompanyGoalsUpdate, by: string): Promise<CompanyGoals> {
    const update = normalised(input);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      // The row exists before it is locked, so concurrent first writes serialise on it too.
      await tx.insert(companyGoals).values({ id: ROW_ID }).onConflictDoNothing();
      const [row] = await tx.select().from(companyGoals).where(eq(companyGoals.id, ROW_ID)).for('update');
      const current = view(row);
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const field of FIELDS) {
        const value = update[field];
        if (value === undefined || JSON.stringify(value) === JSON.stringify(current[field])) continue;
        before[field] = current[field];
        after[field] = value;
      }
      const fields = Object.keys(after);
      if (fields.length === 0) return current;
      const [saved] = await tx
        .update(companyGoals)
        .set({
          ...('company_name' in after ? { companyName: update.company_name } : {}),
          ...('north_star' in after ? { northStar: update.north_star } : {}),
          ...('objectives' in after ? { objectives: update.objectives } : {}),
          ...('constraints' in after ? { constraints: update.constraints } : {}),
          ...('operating_policy' in after ? { operatingPolicy: update.operating_policy } : {}),
          ...('brand_voice' in after ? { brandVoice: update.brand_voice } : {}),
          updatedAt: now,
          updatedBy: by,
        })
        .where(eq(companyGoals.id, ROW_ID))
        .returning();
      await tx.insert(companyGoalChanges).values({ changedBy: by, fields, before, after, at: now });
      return view(saved);
    });
  }

  /** The changes, newest first. */
  async history(limit: number): Promise<CompanyGoalChange[]> {
    const rows = await this.db
      .select()
      .from(companyGoalChanges)
      .orderBy(desc(companyGoalChanges.id))
      .limit(limit);
    return rows.map((row) => ({
      id: row.id,
      changed_by: row.changedBy,
      fields: row.fields,
      before: row.before,
      after: row.after,
      at: row.at.toISOString(),
    }));
  }
}
