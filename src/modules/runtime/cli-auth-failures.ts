/**
 * Reads an agent CLI's output for a model provider refusing its credentials (pure): Claude Code
 * retries a 401 for minutes (`{"type":"system","subtype":"api_retry","error_status":401,
 * "error":"authentication_failed"}`), Codex reconnects five times (`{"type":"error","message":
 * "Reconnecting... (unexpected status 401 Unauthorized: …)"}`), the Gemini CLI ends with an error
 * result (`"code":401 … "UNAUTHENTICATED"`). No retry of a refused key can succeed, so the run is
 * stopped at the first such line and the CEO told (supervisor.ts, dispatch's cli-failures.ts).
 *
 * As with rate limits, only error events of the JSON formats are read — never tool output or the
 * model's text — and a plain line must read as an error.
 */
import { errorTextOf } from './cli-rate-limits.js';

const MAX_LINE = 4_000;
/** How much of the CLI's words the cause keeps. */
const MAX_CAUSE = 300;

const REFUSED =
  /\b401\b|unauthori[sz]ed|unauthenticated|authentication[_ ]?(failed|error)|invalid[_ -]?(x-)?api[_ -]?key|incorrect api key|api key not valid/i;
const PLAIN_REFUSED =
  /(error|status|http)\W+401\b|401 unauthori[sz]ed|invalid api key|incorrect api key|authentication_(error|failed)|api key not valid/i;

/** The CLI's words when one line of its output says the provider refused its credentials, else null. */
export function parseCliAuthFailure(line: string): string | null {
  const text = line.trim();
  if (!text || text.length > MAX_LINE) return null;
  let said: string | null = text;
  if (text.startsWith('{')) {
    try {
      said = errorTextOf(JSON.parse(text));
    } catch {
      said = PLAIN_REFUSED.test(text) ? text : null;
    }
    if (said === null || !REFUSED.test(said)) return null;
  } else if (!PLAIN_REFUSED.test(text)) return null;
  const cause = said.replace(/\s+/g, ' ').trim();
  return cause.length > MAX_CAUSE ? `${cause.slice(0, MAX_CAUSE - 1)}…` : cause;
}

/** Every line of a chunk of output, first refusal wins. */
export function scanCliAuthFailure(chunk: string): string | null {
  for (const line of chunk.split('\n')) {
    const found = parseCliAuthFailure(line);
    if (found) return found;
  }
  return null;
}
