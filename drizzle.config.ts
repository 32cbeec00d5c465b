import { defineConfig } from 'drizzle-kit';

// Each platform area and module owns the schema of its own tables in a `schema.ts` beside it.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/**/schema.ts',
  out: './src/platform/db/migrations',
});
