import { describe, expect, it } from 'vitest';
import { armFigures, EMPTY_SUMS } from './experiment-verdict.js';
import { adviceCard, adviceFor, type RouteFigures } from './route-advice.js';

/** A route's figures: `passed` of `tasks` through QA first time, all accepted, `cost` each; `failed` of `runs` on start. */
function route(
  model: string,
  tasks: number,
  passed: number,
  cost: number,
  failed = 0,
  runs = tasks,
): RouteFigures {
  return {
    cli: 'claude',
    model,
    figures: armFigures({
      ...EMPTY_SUMS,
      tasks,
      ended: tasks,
      qa_n: tasks,
      qa_first: passed,
      cost: cost * tasks,
      accepted: tasks,
      accepted_cost: cost * tasks,
      runs,
      failed_on_start: failed,
    }),
  };
}
const own = { cli: 'claude', model: 'own' };

describe('route advice', () => {
  it('names the cheapest route as good as the own one, with the cost ratio', () => {
    const advice = adviceFor('qa', own, [
      route('own', 30, 24, 2),
      route('half', 30, 22, 1),
      route('third', 12, 10, 0.5),
    ]);
    expect([advice?.cheaper.model, advice?.costRatio]).toEqual(['third', 0.25]);
  });

  it('advises nothing that is worse where the intervals separate', () => {
    expect(adviceFor('qa', own, [route('own', 40, 36, 2), route('sloppy', 40, 10, 0.2)])).toBeNull();
    // As good on QA but failing on start far more often.
    expect(adviceFor('qa', own, [route('own', 40, 36, 2), route('flaky', 40, 36, 1, 30, 40)])).toBeNull();
  });

  it('advises nothing less than 10 % cheaper, or on thin data', () => {
    expect(adviceFor('qa', own, [route('own', 40, 30, 1), route('close', 40, 30, 0.95)])).toBeNull();
    expect(adviceFor('qa', own, [route('own', 40, 30, 1), route('new', 9, 9, 0.1)])).toBeNull();
    expect(adviceFor('qa', own, [route('own', 9, 9, 1), route('other', 40, 40, 0.1)])).toBeNull();
    // The own route has no record at all (routed to a model no task ran on yet).
    expect(adviceFor('qa', own, [route('other', 40, 40, 0.1)])).toBeNull();
  });

  it('words the card with both routes and what nothing does by itself', () => {
    const advice = adviceFor('qa', own, [route('own', 20, 16, 1), route('half', 20, 17, 0.5)]);
    const card = adviceCard(advice!);
    expect(card.subject).toBe('The qa role could run on claude / half at 0.5× the cost');
    expect(card.body).toContain('first-pass QA 80 % [58–92]');
    expect(card.body).toContain('nothing switches by itself');
  });
});
