import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';

describe('the embedded store shares the event loop', () => {
  it('lets a timer (a waiting request) run while a long streak of statements is under way', async () => {
    const database = await openDatabase({ dataDir: undefined, migrate: false });
    try {
      let firedAt = Number.NaN;
      const started = performance.now();
      setTimeout(() => {
        firedAt = performance.now() - started;
      }, 20);
      // Statements back to back for 400 ms, as an indexing pass or a sweep runs them.
      let statements = 0;
      while (performance.now() - started < 400) {
        await database.db.execute(sql`select 1`);
        statements += 1;
      }
      const endedAt = performance.now() - started;
      expect(statements).toBeGreaterThan(10);
      // Without the shared turns the timer could only fire once the streak had ended.
      expect(firedAt).toBeLessThan(endedAt - 200);
    } finally {
      await database.close();
    }
  });
});
