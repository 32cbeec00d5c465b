/**
 * The floor of bench/startup.ts: what any server on the embedded store must do to answer — a node
 * process that (on a first start) copies the same prepared data directory, opens it with PGlite
 * and pgvector as Gaffer does, runs one query, and answers `GET /ready` on a bare node:http server.
 * Plain JavaScript, run by node like the built Gaffer: `node startup-floor.mjs <template> <dataDir>`, on GAFFER_PORT.
 */
import { cpSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

const [template, dataDir] = process.argv.slice(2);
const location = join(dataDir, 'pglite');
if (!existsSync(join(location, 'PG_VERSION'))) cpSync(template, location, { recursive: true });
const client = await PGlite.create(location, { extensions: { vector } });
await client.query('select 1');
const server = createServer((request, response) => {
  response.writeHead(request.url === '/ready' ? 200 : 404).end();
});
server.listen(Number(process.env.GAFFER_PORT), '127.0.0.1');
process.once('SIGTERM', async () => {
  server.close();
  await client.close();
  process.exit(0);
});
