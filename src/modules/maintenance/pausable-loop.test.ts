import { describe, expect, it } from 'vitest';
import type { Hold } from '../../platform/scheduler/index.js';
import { pausableLoop } from './pausable-loop.js';
import type { PauseScope } from './pause-rules.js';

describe('pausableLoop', () => {
  it('derives the tags a kill pause interrupts and the hold from the one list of scopes', async () => {
    const asked: (readonly PauseScope[])[] = [];
    const hold: Hold = { reason: 'maintenance pause on engines', interrupt: false };
    const run = async () => undefined;
    const loop = pausableLoop(
      {
        name: 'board-program.x',
        intervalMs: 1000,
        firstRunAfterMs: 5,
        pauseScopes: ['board_programs', 'engines'],
        run,
      },
      async (scopes) => {
        asked.push(scopes);
        return hold;
      },
    );
    expect(loop).toMatchObject({ name: 'board-program.x', intervalMs: 1000, firstRunAfterMs: 5, run });
    expect(loop.tags).toEqual(['board_programs', 'engines']);
    expect('pauseScopes' in loop).toBe(false);
    expect(await loop.hold?.()).toBe(hold);
    expect(asked).toEqual([['board_programs', 'engines']]);
  });
});
