/** Kanban board rules: columns, caps and assembly. */
import { describe, expect, it } from 'vitest';
import { assembleBoard, columnCap, KANBAN_STATES, RECENT_TERMINAL_CARDS } from './board.js';

describe('KANBAN_STATES', () => {
  it('has the fifteen states in pipeline order, terminal ones last', () => {
    expect(KANBAN_STATES).toHaveLength(15);
    expect(new Set(KANBAN_STATES).size).toBe(15);
    expect(KANBAN_STATES.slice(0, 2)).toEqual(['backlog', 'pending']);
    expect(KANBAN_STATES.slice(-2)).toEqual(['completed', 'cancelled']);
  });
});

describe('columnCap', () => {
  it('is the limit for active columns', () => {
    expect(columnCap('in_progress', { limit: 100, includeTerminal: false })).toBe(100);
    expect(columnCap('pending', { limit: 3, includeTerminal: true })).toBe(3);
  });

  it('keeps terminal columns to the most recent few unless asked for', () => {
    expect(columnCap('completed', { limit: 100, includeTerminal: false })).toBe(RECENT_TERMINAL_CARDS);
    expect(columnCap('cancelled', { limit: 5, includeTerminal: false })).toBe(5);
    expect(columnCap('completed', { limit: 300, includeTerminal: true })).toBe(300);
  });
});

describe('assembleBoard', () => {
  it('lists every column in order, with counts, truncation and cards kept in their given order', () => {
    const cards = [
      { status: 'pending', id: 'p1' },
      { status: 'in_progress', id: 'i1' },
      { status: 'pending', id: 'p2' },
      { status: 'mystery', id: 'm1' },
    ];
    const { columns, total } = assembleBoard(
      [
        { status: 'pending', count: 5 },
        { status: 'in_progress', count: 1 },
        { status: 'mystery', count: 1 },
      ],
      cards,
    );
    expect(columns.map((c) => c.status)).toEqual([...KANBAN_STATES]);
    expect(columns.find((c) => c.status === 'pending')).toEqual({
      status: 'pending',
      count: 5,
      truncated: true,
      cards: [cards[0], cards[2]],
    });
    expect(columns.find((c) => c.status === 'in_progress')).toMatchObject({ count: 1, truncated: false });
    expect(columns.find((c) => c.status === 'backlog')).toEqual({
      status: 'backlog',
      count: 0,
      truncated: false,
      cards: [],
    });
    expect(total).toBe(6);
  });
});
