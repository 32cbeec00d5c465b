/** The one way to turn anything thrown into a message string (for logs, records and error bodies). */

/** The error's message (or the thrown value as text), cut to `maxChars` when given. */
export function messageOf(error: unknown, maxChars?: number): string {
  const message = error instanceof Error ? error.message : String(error);
  return maxChars === undefined ? message : message.slice(0, maxChars);
}
