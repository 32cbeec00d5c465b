/**
 * A value setting as text in a form and back: strings as they are, numbers as digits, objects and
 * arrays as pretty JSON; an empty field means "no value" (null) where the default is null, and the
 * default otherwise. Parsing problems are said in words, before anything is sent.
 */
export type SettingShape = 'text' | 'number' | 'json';

export function shapeOf(value: unknown, fallback: unknown): SettingShape {
  const sample = value ?? fallback;
  if (typeof sample === 'string') return 'text';
  if (sample === null || typeof sample === 'number') return 'number';
  return 'json';
}

export function textOf(value: unknown, shape: SettingShape): string {
  if (value === null || value === undefined) return '';
  if (shape === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

export type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

export function parseSetting(text: string, shape: SettingShape, fallback: unknown): Parsed {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: fallback === null ? null : fallback };
  if (shape === 'text') return { ok: true, value: trimmed };
  if (shape === 'number') {
    const number = Number(trimmed);
    return Number.isFinite(number) ? { ok: true, value: number } : { ok: false, problem: 'must be a number' };
  }
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    return { ok: false, problem: 'must be valid JSON' };
  }
}
