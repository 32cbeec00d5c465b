/**
 * The panel's API types (panel/src/api/schema.d.ts) are generated from the server's own OpenAPI
 * document; a route schema changed without `npm run panel:types` fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PANEL_SCHEMA_PATH, panelSchemaSource } from '../scripts/panel-types.js';

describe('panel API types', () => {
  it('match the server as it is now (run `npm run panel:types` after changing a route schema)', async () => {
    const committed = readFileSync(PANEL_SCHEMA_PATH, 'utf8');
    const fresh = await panelSchemaSource();
    expect(committed === fresh, 'panel/src/api/schema.d.ts is stale: run `npm run panel:types`').toBe(true);
  }, 120_000);
});
