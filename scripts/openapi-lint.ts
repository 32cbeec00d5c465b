/**
 * `npm run lint:api`: writes the server's OpenAPI document (the one /docs/json serves) to
 * `.openapi/openapi.json` (not committed) and checks it with Redocly's linter against its
 * recommended rules (redocly.yaml; the few answered exceptions in .redocly.lint-ignore.yaml, which
 * names the document by that path). Exits with the linter's status: any error or warning fails
 * `npm run lint` and CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverOpenApiDocument } from './panel-types.js';

const root = fileURLToPath(new URL('..', import.meta.url));
mkdirSync(join(root, '.openapi'), { recursive: true });
writeFileSync(join(root, '.openapi/openapi.json'), JSON.stringify(await serverOpenApiDocument(), null, 1));
const lint = spawnSync(
  join(root, 'node_modules/.bin/redocly'),
  ['lint', '.openapi/openapi.json', '--config', 'redocly.yaml', '--max-problems', '1000'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
process.exitCode = lint.status ?? 1;
