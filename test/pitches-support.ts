/** Shared steps of the pitch suites: a roster member's headers and a pitch body. */
import { rosterMember } from '../src/modules/agents/index.js';
import type { TestApp } from './support/app.js';

export const as = (t: TestApp, slug: string) => {
  const m = rosterMember(slug);
  return t.headersFor(m.id, m.role, m.team ?? '');
};

export const pitchBody = (slug: string, cells: string[]) => ({
  title: `Loyalty ${slug}`,
  slug,
  problem: 'Returning customers get nothing for coming back.',
  proposal: 'Points on every order, redeemable at checkout.',
  target_cells: cells,
});
