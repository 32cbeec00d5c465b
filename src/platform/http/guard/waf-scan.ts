/**
 * Walks a request's query and JSON body and reports the first attack payload, skipping the fields
 * the route's allow-list names. Pure; the hook that calls it lives in waf.ts.
 */
import type { AllowedFields } from './waf-allow-list.js';
import { matchContent, matchPath, type WafHit } from './waf-patterns.js';

/** Characters of body text read per request; a larger body is judged on its first part. */
export const BODY_SCAN_BUDGET = 65_536;

export function scanUrl(rawUrl: string, query: unknown, allowed: AllowedFields): WafHit | null {
  const [rawPath = '', rawQuery] = splitOnce(rawUrl, '?');
  const pathCategory = matchPath(rawPath);
  if (pathCategory) return { category: pathCategory, where: 'path' };
  if (rawQuery === undefined) return null;
  if (query && typeof query === 'object') {
    for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
      const nameCategory = matchContent(name);
      if (nameCategory) return { category: nameCategory, where: 'query' };
      if (allowed.query.has(name.toLowerCase())) continue;
      for (const item of [value].flat()) {
        const category = typeof item === 'string' ? matchContent(item) : null;
        if (category) return { category, where: `query.${name}` };
      }
    }
    return null;
  }
  const category = matchContent(rawQuery);
  return category ? { category, where: 'query' } : null;
}

export function scanBody(body: unknown, allowed: AllowedFields): WafHit | null {
  if (allowed.body.has('*')) return null;
  const budget = { left: BODY_SCAN_BUDGET };
  return walk(body, 'body', allowed.body, budget, 0);
}

function walk(
  value: unknown,
  where: string,
  skip: ReadonlySet<string>,
  budget: { left: number },
  depth: number,
): WafHit | null {
  if (budget.left <= 0 || depth > 32) return null;
  if (typeof value === 'string') {
    const text = value.length > budget.left ? value.slice(0, budget.left) : value;
    budget.left -= text.length;
    const category = matchContent(text);
    return category ? { category, where } : null;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const hit = walk(item, where, skip, budget, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (skip.has(key.toLowerCase())) continue;
      const hit = walk(item, `${where}.${key}`, skip, budget, depth + 1);
      if (hit) return hit;
    }
  }
  return null;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
