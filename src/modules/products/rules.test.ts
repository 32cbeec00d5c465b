/** Product cell routing rules. */
import { describe, expect, it } from 'vitest';
import { duplicateTeams } from './rules.js';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';

describe('product cell routing', () => {
  it('finds teams named twice', () => {
    expect(duplicateTeams([])).toEqual([]);
    expect(
      duplicateTeams([
        { team: 'backend', project_id: P1 },
        { team: 'frontend', project_id: P1 },
      ]),
    ).toEqual([]);
    expect(
      duplicateTeams([
        { team: 'backend', project_id: P1 },
        { team: 'backend', project_id: P2 },
        { team: 'backend', project_id: P2 },
      ]),
    ).toEqual(['backend']);
  });
});
