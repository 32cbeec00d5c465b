/**
 * Scripted models with a character. The model a scripted agent is given (by its route, an
 * experiment's arm or the agent's own model) can declare how its simulated work goes, so a demo
 * company shows differences the Workforce page can measure and tests can prove detection:
 *
 * - a name from the catalog: `scripted-careful`, `scripted-hasty`, `scripted-steady`;
 * - or its own figures: `scripted:qa=0.8,findings=2,tokens=4000,price=3,seed=7`.
 *
 * `qa` is the chance a developer's first revision passes QA, `findings` how many findings QA files
 * on a revision that does not, `tokens` what each run uses and `price` its USD per million tokens.
 * Every draw is a hash of the seed, the task and the revision: the same task goes the same way on
 * every run, replica and store. Any other model (or none) is the plain scripted behaviour: work
 * passes unless its title carries the fail marker, and runs use no tokens.
 */
import { createHash } from 'node:crypto';

export interface Character {
  model: string;
  /** The chance (0–1) that a first revision passes QA. */
  firstPassQa: number;
  /** Findings QA files on a revision that fails. */
  findings: number;
  /** Tokens one run uses (four fifths input, one fifth output). */
  tokens: number;
  /** USD per million tokens. */
  pricePerMillion: number;
  seed: number;
}

type Figures = Omit<Character, 'model'>;

export const CATALOG: Readonly<Record<string, Figures>> = {
  'scripted-careful': { firstPassQa: 0.9, findings: 1, tokens: 9000, pricePerMillion: 3, seed: 1 },
  'scripted-hasty': { firstPassQa: 0.4, findings: 3, tokens: 5000, pricePerMillion: 3, seed: 2 },
  'scripted-steady': { firstPassQa: 0.7, findings: 2, tokens: 7000, pricePerMillion: 3, seed: 3 },
};

const KEYS: Record<string, keyof Figures> = {
  qa: 'firstPassQa',
  findings: 'findings',
  tokens: 'tokens',
  price: 'pricePerMillion',
  seed: 'seed',
};
const DEFAULTS: Figures = { firstPassQa: 1, findings: 1, tokens: 0, pricePerMillion: 0, seed: 0 };

/** The character a model name declares; null for any other model (the plain scripted behaviour). */
export function characterOf(model: string | null | undefined): Character | null {
  const name = model?.trim() ?? '';
  const known = CATALOG[name];
  if (known) return { model: name, ...known };
  const declared = /^scripted:(.+)$/.exec(name)?.[1];
  if (!declared) return null;
  const figures: Figures = { ...DEFAULTS };
  for (const pair of declared.split(',')) {
    const [key = '', raw = ''] = pair.split('=').map((part) => part.trim());
    const field = KEYS[key];
    const value = Number(raw);
    if (!field || raw === '' || !Number.isFinite(value) || value < 0) return null;
    figures[field] = value;
  }
  if (figures.firstPassQa > 1) return null;
  return { model: name, ...figures };
}

/** A deterministic draw in [0, 1) for one task's revision. */
export function draw(character: Character, taskId: string, revision: number): number {
  const digest = createHash('sha256').update(`${character.seed}:${taskId}:${revision}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** How many findings QA files on this revision: 0 when it passes (a second revision always does). */
export function findingsDrawn(character: Character, taskId: string, revision: number): number {
  if (revision > 0 || draw(character, taskId, revision) < character.firstPassQa) return 0;
  return Math.max(1, Math.round(character.findings));
}

/** The closing usage line of a run (Claude Code's `result` shape, which the usage reader books). */
export function usageLine(character: Character): string | null {
  if (character.tokens <= 0) return null;
  const input = Math.round(character.tokens * 0.8);
  return `${JSON.stringify({
    type: 'result',
    usage: { input_tokens: input, output_tokens: character.tokens - input },
    total_cost_usd: (character.tokens * character.pricePerMillion) / 1_000_000,
  })}\n`;
}
