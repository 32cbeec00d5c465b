import { describe, expect, it } from 'vitest';
import { changesOf, formFieldOf, formOf, needsForce, validate } from './override-rules';

const task = {
  title: 'Health endpoint',
  description: 'GET /health answering the version, for the probes.',
  acceptance_criteria: [{ text: 'answers 200' }, { text: 'documented' }],
  priority: 2,
  team: 'backend' as const,
  assigned_to: 'x',
  status: 'in_progress' as const,
};
const original = formOf(task, 'be-dev-1');

describe('the override form', () => {
  it('sends nothing when nothing changed, and only what changed otherwise', () => {
    expect(changesOf(original, original)).toEqual({});
    expect(changesOf({ ...original, reason: 'why not' }, original)).toEqual({});
    expect(
      changesOf(
        { ...original, title: ' Health probe ', priority: '0', assignee: '', reason: 'retitle' },
        original,
      ),
    ).toEqual({ title: 'Health probe', priority: 0, assigned_to: null, reason: 'retitle' });
    expect(changesOf({ ...original, criteria: 'answers 200\n\n documented \n' }, original)).toEqual({});
    expect(changesOf({ ...original, criteria: 'answers 200' }, original)).toEqual({
      acceptance_criteria: ['answers 200'],
    });
  });

  it('checks the server’s limits before sending', () => {
    expect(validate(original, original)).toEqual({});
    expect(
      Object.keys(
        validate({ ...original, title: ' ', description: 'short', criteria: '', priority: '7' }, original),
      ),
    ).toEqual(['title', 'description', 'criteria', 'priority']);
    expect(
      validate({ ...original, criteria: Array(8).fill('c').join('\n') }, original).criteria,
    ).toBeDefined();
  });

  it('asks for force into a review or terminal state or out of a terminal one, and sends it', () => {
    expect(needsForce('in_progress', 'pending')).toBe(false);
    expect(needsForce('in_progress', 'completed')).toBe(true);
    expect(needsForce('cancelled', 'pending')).toBe(true);
    expect(needsForce('pending', 'awaiting_qa')).toBe(true);
    const toDone = { ...original, status: 'completed' as const };
    expect(validate(toDone, original).force).toMatch(/needs force/);
    expect(validate({ ...toDone, force: true }, original)).toEqual({});
    expect(changesOf({ ...toDone, force: true }, original)).toEqual({ status: 'completed', force: true });
  });

  it('maps the server’s 422 fields onto the form', () => {
    expect(formFieldOf('body.assigned_to')).toBe('assignee');
    expect(formFieldOf('body.acceptance_criteria.2')).toBe('criteria');
    expect(formFieldOf('body')).toBeUndefined();
  });
});
