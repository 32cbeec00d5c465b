/** PATCH scopes (reference A §10.4): owners, PMs, privileged fields, and the CEO’s status override. */
import { describe, expect, it } from 'vitest';
import type { Role } from '../lifecycle/index.js';
import { type UpdateField, updateRefusal } from './update-rules.js';

const may = (role: Role, fields: UpdateField[], isOwner = false, sameTeam = true) =>
  updateRefusal(fields, { role, isOwner, sameTeam }) === null;

describe('updateRefusal', () => {
  it('lets the CEO change anything, status included', () => {
    expect(may('ceo', ['status', 'force', 'assigned_to', 'title', 'budget_usd'])).toBe(true);
  });

  it('lets the board and the auditor change privileged fields but not the status', () => {
    expect(may('product_owner', ['assigned_to', 'team', 'dependency_ids'])).toBe(true);
    expect(may('auditor', ['plan', 'budget_usd', 'sequence'])).toBe(true);
    expect(may('head_marketing', ['status'])).toBe(false);
  });

  it('limits PMs to wording and priority, a cell PM to its own team, and never the status', () => {
    expect(may('cell_pm', ['title', 'description', 'acceptance_criteria', 'priority'])).toBe(true);
    expect(may('cell_pm', ['title'], false, false)).toBe(false);
    expect(may('main_pm', ['title'], false, false)).toBe(true);
    expect(may('main_pm', ['assigned_to'])).toBe(false);
    expect(may('cell_pm', ['status'])).toBe(false);
    expect(updateRefusal(['intends_to_touch'], { role: 'cell_pm', isOwner: true, sameTeam: true })).toMatch(
      /may only change/,
    );
  });

  it('lets an owner change its own fields only', () => {
    expect(may('developer', ['title', 'intends_to_touch', 'adds_migration', 'reason'], true)).toBe(true);
    expect(may('developer', ['title'], false)).toBe(false);
    expect(may('developer', ['assigned_to'], true)).toBe(false);
    expect(may('developer', ['status', 'force'], true)).toBe(false);
  });
});
