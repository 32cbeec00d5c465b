import { describe, expect, it } from 'vitest';
import { capabilityList, draftProblems } from './agent-draft';

const draft = { name: 'Backend Developer 1', model: '', description: '', capabilities: 'node, sql' };

describe('the agent profile form', () => {
  it('accepts a valid draft and splits capabilities on commas', () => {
    expect(draftProblems(draft)).toEqual({});
    expect(capabilityList(' node , sql,, ')).toEqual(['node', 'sql']);
  });

  it('names each field that breaks a server limit', () => {
    expect(
      draftProblems({
        name: '  ',
        model: 'm'.repeat(101),
        description: 'd'.repeat(2001),
        capabilities: Array(51).fill('x').join(','),
      }),
    ).toEqual({
      name: 'Give the agent a name.',
      model: 'At most 100 characters.',
      description: 'At most 2000 characters.',
      capabilities: 'At most 50 capabilities.',
    });
    expect(draftProblems({ ...draft, name: 'n'.repeat(101), capabilities: 'c'.repeat(101) })).toEqual({
      name: 'At most 100 characters.',
      capabilities: 'Each at most 100 characters.',
    });
  });
});
