/** The impact bar on a table of drafts whose scores and failed rules are known by hand. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HYPE_WORDS, IMPACT_RUBRIC, impactBar } from './impact-bar.js';

const GOOD =
  'Gaffer 0.30.0 ships the operator maintenance pause: drain or kill dispatch for up to 24 hours, ' +
  'with a countdown on every page. Notes: https://example.com/r/0.30.0';

const cases: { name: string; body: string; score: number; failed: string[] }[] = [
  { name: 'a release post that follows every rule', body: GOOD, score: 100, failed: [] },
  {
    name: 'hype, emoji, hashtag and exclamation',
    body: 'Gaffer 0.30.0 ships an amazing maintenance pause 🚀! Drain or kill dispatch for up to 24 hours, with a live countdown on every page. #devtools',
    score: 65,
    failed: ['no_hashtags', 'no_emoji', 'no_exclamation', 'no_hype'],
  },
  {
    name: 'a claim with no deliverable and no specific',
    body: 'We have been thinking hard about how teams of agents should pause safely, and we believe our answer is the calmest one around. Read more soon.',
    score: 55,
    failed: ['deliverable_first', 'verifiable_specific'],
  },
  {
    name: 'two links, one of them early',
    body: 'Gaffer 0.30.0 ships the maintenance pause https://example.com/a with drain and kill modes for dispatch, board programs and engines. Docs https://example.com/b',
    score: 85,
    failed: ['one_link_near_end'],
  },
  {
    name: 'one link at the start',
    body: 'https://example.com/release The maintenance pause ships in 0.30.0 with drain and kill modes for dispatch, board programs and engines, and a countdown.',
    score: 85,
    failed: ['one_link_near_end'],
  },
  { name: 'too short', body: 'Gaffer 0.30.0 is out.', score: 95, failed: ['length_sweet_spot'] },
  {
    name: 'a named artifact counts as the specific',
    body: 'The board now adds a `maintenance_pause` banner on every page, with who paused dispatch, why, and when it resumes by itself, so nobody has to ask.',
    score: 100,
    failed: [],
  },
];

describe('the impact bar', () => {
  it('has a rubric worth exactly 100 points with unique rule ids', () => {
    expect(IMPACT_RUBRIC.reduce((sum, rule) => sum + rule.points, 0)).toBe(100);
    expect(new Set(IMPACT_RUBRIC.map((rule) => rule.id)).size).toBe(IMPACT_RUBRIC.length);
  });

  it.each(cases)('scores $name', ({ body, score, failed }) => {
    const result = impactBar(body);
    expect(result.failed.map((f) => f.rule)).toEqual(failed);
    expect(result.score).toBe(score);
    expect(result.max).toBe(100);
  });

  it('is deterministic', () => {
    expect(impactBar(GOOD)).toEqual(impactBar(GOOD));
  });

  it('is the rubric docs/api.md publishes: every rule with its points, every hype word', () => {
    const readme = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    for (const rule of IMPACT_RUBRIC) expect(readme).toContain(`| \`${rule.id}\` | ${rule.points} |`);
    const hypeRow = readme.split('\n').find((line) => line.startsWith('| `no_hype`')) ?? '';
    for (const word of HYPE_WORDS) expect(hypeRow, word).toContain(word.replace(/(d|ly|al)$/, ''));
  });
});
