/**
 * `npm run panel:types`: writes panel/src/api/schema.d.ts, the panel's API types, from the server's
 * own OpenAPI document. The app is built in-process on a throwaway embedded database and never
 * listens; `app.swagger()` is the same document /docs/json serves. test/panel-types.test.ts fails
 * when the committed file is stale.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { configWith } from '../src/config.js';
import { openPlatform } from '../src/server.js';

export const PANEL_SCHEMA_PATH = fileURLToPath(new URL('../panel/src/api/schema.d.ts', import.meta.url));

const HEADER =
  '/**\n * The server’s API as TypeScript types, generated from its OpenAPI document by `npm run panel:types`.\n' +
  ' * Do not edit: change the route schemas and regenerate (a test fails when this file is stale).\n */\n\n';

/** The server's OpenAPI document, from an app built in-process on a throwaway data directory. */
export async function serverOpenApiDocument(): Promise<OpenAPI3> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-panel-types-'));
  const platform = await openPlatform(configWith({ dataDir, logLevel: 'silent' }));
  try {
    const { app } = await buildApp(platform, { logger: false });
    await app.ready();
    const document = app.swagger() as unknown as OpenAPI3;
    await app.close();
    return document;
  } finally {
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The text of panel/src/api/schema.d.ts for the server as it is now. Paths are sorted, so the file
 * changes with the routes and their schemas, not with the order the modules register them in.
 */
export async function panelSchemaSource(): Promise<string> {
  const document = await serverOpenApiDocument();
  const paths = Object.entries(document.paths ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const ast = await openapiTS({ ...document, paths: Object.fromEntries(paths) });
  return HEADER + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(PANEL_SCHEMA_PATH, await panelSchemaSource());
  console.log(`wrote ${PANEL_SCHEMA_PATH}`);
}
