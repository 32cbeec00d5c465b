/**
 * The impact bar: a deterministic score 0–100 of an X post draft against a published rubric. Each
 * rule is data (id, points, what it asks, how to fix it) plus a pure check; a draft earns a rule's
 * points when it passes and the result lists every rule it fails. No model, no randomness: the same
 * text always scores the same. The rubric is printed in docs/api.md ("X posts").
 */
import twitterText from 'twitter-text';

export interface ImpactRule {
  readonly id: string;
  readonly points: number;
  /** What the rule asks of a draft. */
  readonly label: string;
  readonly passes: (body: string) => boolean;
}

export interface ImpactScore {
  /** 0–100: the points of the rules passed. */
  score: number;
  max: number;
  failed: { rule: string; label: string; points: number }[];
}

/** Verbs that announce a deliverable ("ships", "adds", "is out"…), matched as whole words in sentence one. */
export const DELIVERY_VERBS = [
  'ship',
  'ships',
  'shipped',
  'release',
  'releases',
  'released',
  'launch',
  'launches',
  'launched',
  'add',
  'adds',
  'added',
  'introduce',
  'introduces',
  'introduced',
  'land',
  'lands',
  'landed',
  'support',
  'supports',
  'now',
  'out',
  'available',
  'fix',
  'fixes',
  'fixed',
  'cut',
  'cuts',
] as const;

/** Words that claim instead of showing. Any one of them fails `no_hype`. */
export const HYPE_WORDS = [
  'revolutionary',
  'revolutionize',
  'game-changer',
  'game-changing',
  'groundbreaking',
  'amazing',
  'incredible',
  'awesome',
  'insane',
  'unbelievable',
  'blazing',
  'blazingly',
  'supercharge',
  'supercharged',
  'next-level',
  'cutting-edge',
  'best-in-class',
  'world-class',
  'seamless',
  'seamlessly',
  'disruptive',
  'magic',
  'magical',
  'epic',
  'massive',
  'excited',
  'thrilled',
  'stoked',
  'unleash',
  'ultimate',
] as const;

/** The length X counts (twitter-text's weighting): a link is 23, most CJK characters and emoji 2. */
export const lengthOf = (body: string): number => twitterText.parseTweet(body).weightedLength;
export const X_MAX_CHARS = 280;
export const SWEET_SPOT = { min: 100, max: 240 } as const;
/** A link is "near the end" when at most this many characters follow it. */
const LINK_TAIL_CHARS = 40;

const URL_PATTERN = /https?:\/\/\S+/gi;
const words = (text: string): string[] =>
  text.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [];
const firstSentence = (body: string): string => body.trim().split(/(?<=[.!?])\s+|\n+/)[0] ?? '';

function linkNearEnd(body: string): boolean {
  const text = body.trim();
  const links = [...text.matchAll(URL_PATTERN)];
  if (links.length === 0) return true;
  if (links.length > 1) return false;
  const link = links[0]!;
  return text.length - (link.index + link[0].length) <= LINK_TAIL_CHARS;
}

export const IMPACT_RUBRIC: readonly ImpactRule[] = [
  {
    id: 'deliverable_first',
    points: 25,
    label: 'Sentence one names the deliverable with a delivery verb (ships, adds, is out…).',
    passes: (body) => {
      const verbs = new Set<string>(DELIVERY_VERBS);
      return words(firstSentence(body).replace(URL_PATTERN, '')).some((w) => verbs.has(w));
    },
  },
  {
    id: 'verifiable_specific',
    points: 20,
    label: 'One specific a sceptic can check: a number, a version, or a `named` artifact.',
    passes: (body) => /\d/.test(body.replace(URL_PATTERN, '')) || /`[^`]+`/.test(body),
  },
  {
    id: 'one_link_near_end',
    points: 15,
    label: `At most one link, and it sits at the end (≤ ${LINK_TAIL_CHARS} characters after it).`,
    passes: linkNearEnd,
  },
  {
    id: 'no_hashtags',
    points: 10,
    label: 'No hashtags.',
    passes: (body) => !/(^|[^\p{L}\p{N}&/])#[\p{L}\p{N}_]+/u.test(body.replace(URL_PATTERN, '')),
  },
  {
    id: 'no_emoji',
    points: 10,
    label: 'No emoji.',
    passes: (body) => !/\p{Extended_Pictographic}/u.test(body),
  },
  {
    id: 'no_exclamation',
    points: 5,
    label: 'No exclamation marks.',
    passes: (body) => !body.replace(URL_PATTERN, '').includes('!'),
  },
  {
    id: 'no_hype',
    points: 10,
    label: 'No hype words (amazing, game-changer, revolutionary, seamless… — the list is in docs/api.md).',
    passes: (body) => {
      const hype = new Set<string>(HYPE_WORDS);
      return !words(body.replace(URL_PATTERN, '')).some((w) => hype.has(w));
    },
  },
  {
    id: 'length_sweet_spot',
    points: 5,
    label: `Between ${SWEET_SPOT.min} and ${SWEET_SPOT.max} characters (the hard limit is ${X_MAX_CHARS}).`,
    passes: (body) => {
      const length = lengthOf(body.trim());
      return length >= SWEET_SPOT.min && length <= SWEET_SPOT.max;
    },
  },
];

/** Scores one draft against the rubric. Pure. */
export function impactBar(body: string, rubric: readonly ImpactRule[] = IMPACT_RUBRIC): ImpactScore {
  const max = rubric.reduce((sum, rule) => sum + rule.points, 0);
  const failed = rubric.filter((rule) => !rule.passes(body));
  const lost = failed.reduce((sum, rule) => sum + rule.points, 0);
  return {
    score: max - lost,
    max,
    failed: failed.map((rule) => ({ rule: rule.id, label: rule.label, points: rule.points })),
  };
}
