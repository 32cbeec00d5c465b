/**
 * Structured fields (a task's plan, evidence blocks) as a document to read, never as JSON: each
 * field a section with a human heading, in the order a reader wants them; strings as paragraphs,
 * lists of strings as bullets, lists of objects as items with a title and their other fields as
 * lines ("Risk … — Mitigation …"), nested objects as labelled lines.
 */

export type Block =
  | { kind: 'text'; text: string }
  | { kind: 'list'; items: string[]; ordered: boolean }
  /** `label` is empty for an item's description (its own text). */
  | { kind: 'items'; items: { title: string; lines: { label: string; text: string }[] }[]; ordered: boolean }
  | { kind: 'fields'; fields: { label: string; text: string }[] };

export interface Section {
  key: string;
  heading: string;
  block: Block;
}

/** Headings for the fields the gateway's plans and evidence carry; any other key is humanised. */
const HEADINGS: Record<string, string> = {
  summary: 'Summary',
  approach: 'Approach',
  steps: 'Steps',
  sub_tasks: 'Sub-tasks',
  technical_considerations: 'Technical considerations',
  risks: 'Risks',
  open_questions: 'Open questions',
};
/** Lists whose order is the point. */
const ORDERED = new Set(['steps', 'sub_tasks']);
/** Fields an item's title comes from, in preference. */
const TITLE_KEYS = ['title', 'name', 'risk', 'summary', 'path', 'file'];

export function humanise(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Any value as one line of text (objects as `label: value` pairs). */
function line(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(line).join(', ');
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${humanise(k)}: ${line(v)}`)
    .join(' · ');
}

function blockOf(key: string, value: unknown): Block | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    const ordered = ORDERED.has(key);
    if (value.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))) {
      return {
        kind: 'items',
        ordered,
        items: value.map((item) => {
          const fields = Object.entries(item as Record<string, unknown>);
          const titleKey = TITLE_KEYS.find((k) => typeof (item as Record<string, unknown>)[k] === 'string');
          return {
            title: titleKey ? String((item as Record<string, unknown>)[titleKey]) : '',
            // A description reads as the item's own text; other fields are labelled.
            lines: fields
              .filter(([k]) => k !== titleKey)
              .map(([k, v]) => ({ label: k === 'description' ? '' : humanise(k), text: line(v) })),
          };
        }),
      };
    }
    return { kind: 'list', ordered, items: value.map(line) };
  }
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>).map(([k, v]) => ({
      label: humanise(k),
      text: line(v),
    }));
    return fields.length ? { kind: 'fields', fields } : null;
  }
  return { kind: 'text', text: line(value) };
}

/** The sections of a structured field: the known ones in reading order, then the rest; `skip` left out. */
export function sectionsOf(document: Record<string, unknown>, skip: readonly string[] = []): Section[] {
  const known = Object.keys(HEADINGS).filter((key) => key in document);
  const rest = Object.keys(document).filter((key) => !(key in HEADINGS) && !skip.includes(key));
  return [...known, ...rest].flatMap((key) => {
    const block = blockOf(key, document[key]);
    return block ? [{ key, heading: HEADINGS[key] ?? humanise(key), block }] : [];
  });
}
