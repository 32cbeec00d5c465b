/** Recognises PostgreSQL constraint violations through Drizzle's wrapper, on PGlite and node-postgres alike. */

/** SQLSTATE of the error or of its cause (Drizzle wraps driver errors in DrizzleQueryError). */
export function sqlState(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';
/** A referenced row is still in use: 23503 (NO ACTION) or 23001 (ON DELETE RESTRICT). */
export const isForeignKeyViolation = (error: unknown) => ['23503', '23001'].includes(sqlState(error) ?? '');
