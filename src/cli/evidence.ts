/**
 * `gaffer evidence rebuild`: folds every task's outcome again from the record alone. Asks the
 * running server (POST /api/workforce/outcomes/rebuild, as the CEO with a 60-second token) — the
 * embedded store is the server's alone — or, with no server answering, opens the configured store
 * itself (migrated first, so a store from before the evidence has its table).
 */
import type { Config } from '../config.js';
import { openDatabase } from '../platform/db/client.js';
import { baseUrl, CEO_IDENTITY, expiringToken, loadOrCreateSecret } from '../platform/http/auth/index.js';
import { serverAnswers } from './backup.js';

const counted = (tasks: number) => `${tasks} task${tasks === 1 ? '' : 's'}`;

export async function runEvidenceRebuild(config: Config): Promise<number> {
  const base = baseUrl({ ...config, publicUrl: undefined });
  if (await serverAnswers(base)) {
    const token = expiringToken(loadOrCreateSecret(config), CEO_IDENTITY, 60);
    const response = await fetch(`${base}/api/workforce/outcomes/rebuild`, {
      method: 'POST',
      headers: { 'x-agent-token': token },
    });
    if (!response.ok) {
      console.error(
        `gaffer evidence rebuild: the server at ${base} answered ${response.status}: ${await response.text()}`,
      );
      return 1;
    }
    const { tasks } = (await response.json()) as { tasks: number };
    console.log(
      `Rebuilt by the Gaffer at ${base}: the outcomes of ${counted(tasks)} folded from the record.`,
    );
    return 0;
  }
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
    migrate: true,
  });
  try {
    const { rebuildOutcomes } = await import('../modules/evidence/index.js');
    const tasks = await rebuildOutcomes(database.db);
    console.log(
      `No Gaffer answers at ${base}: rebuilt in the ${config.databaseUrl ? 'PostgreSQL' : 'embedded'} store ` +
        `directly — the outcomes of ${counted(tasks)} folded from the record.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}
