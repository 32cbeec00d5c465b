/**
 * PGlite runs Postgres in this thread, and a statement's promise settles without an event-loop turn:
 * a loop of statements (an indexing pass, a sweep over thousands of rows) then starves everything
 * else — HTTP requests, timers, sockets — until it ends (seconds, on a large board). So a statement
 * that comes after TURN_MS of uninterrupted database work first yields one turn of the event loop;
 * waiting requests then get parsed and queue their own statements (PGlite serves them in order).
 */

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PGlite } from '@electric-sql/pglite';

const TURN_MS = 10;

/** Makes `client` give the event loop a turn at least every TURN_MS of statements. */
export function shareTurns(client: PGlite): void {
  const run = client.execProtocolStream.bind(client);
  // A streak of statements runs without the loop turning; `turned` is set by the loop's next turn.
  let streakSince = 0;
  let turned = true;
  const turn = () => {
    turned = true;
  };
  client.execProtocolStream = async (message, options) => {
    if (!turned && performance.now() - streakSince >= TURN_MS) {
      await nextTurn();
      turned = true;
    }
    if (turned) {
      turned = false;
      streakSince = performance.now();
      setImmediate(turn);
    }
    return run(message, options);
  };
}
