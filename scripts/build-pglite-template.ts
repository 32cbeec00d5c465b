/**
 * Makes dist/pglite-template-<key>: this build's migrated, empty PGlite data directory, which a
 * first start copies instead of creating and migrating a database (src/platform/db/pglite-template.ts).
 * `npm run build` (and so `npm start`) runs it; it does nothing when the template is current.
 */
import { preparePgliteTemplate } from '../src/platform/db/client.js';

await preparePgliteTemplate();
