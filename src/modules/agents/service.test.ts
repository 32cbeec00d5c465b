/** The roster service on a real database: org helpers, escalation with vacant posts, state, retired cache. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/stores.js';
import type { Database } from '../../platform/db/client.js';
import { RetiredAgents } from './retired-agents.js';
import { rosterMember } from './roster.js';
import { seedDefaultCompany } from './seed.js';
import { AgentsService } from './service.js';

let database: Database;
let service: AgentsService;
beforeAll(async () => {
  database = await openTestDatabase();
  await seedDefaultCompany(database.db);
  service = new AgentsService(database.db);
});
afterAll(async () => {
  await database.close();
});

const slugs = (agents: { slug: string }[]) => agents.map((a) => a.slug);

describe('org helpers', () => {
  it('finds agents by role and cell, and the PMs', async () => {
    expect(slugs(await service.byRole('developer', 'ux_ui'))).toEqual(['ux-dev-1', 'ux-dev-2']);
    expect(slugs(await service.byRole('pr_reviewer'))).toHaveLength(5);
    expect((await service.cellPm('frontend'))?.slug).toBe('fe-pm');
    expect((await service.mainPm())?.slug).toBe('main-pm');
  });

  it('resolves by UUID or slug, case-insensitively', async () => {
    const pm = rosterMember('be-pm');
    expect((await service.resolve(pm.id))?.slug).toBe('be-pm');
    expect((await service.resolve(' BE-PM '))?.id).toBe(pm.id);
    expect(await service.resolve('nobody')).toBeNull();
  });

  it('escalates along the reference chain', async () => {
    const target = async (slug: string) => (await service.escalationTarget(rosterMember(slug)))?.slug ?? null;
    expect(await target('be-dev-1')).toBe('be-pm');
    expect(await target('fe-qa')).toBe('fe-pm');
    expect(await target('ux-doc')).toBe('ux-pm');
    expect(await target('be-pm')).toBe('main-pm');
    expect(await target('main-pm')).toBe('product-owner');
    expect(await target('auditor')).toBe('ceo');
    expect(await target('head-marketing')).toBe('ceo');
    expect(await target('be-pr-reviewer')).toBeNull();
    expect(await target('ceo')).toBeNull();
  });

  it('records runtime state', async () => {
    const dev = rosterMember('fe-dev-2');
    await service.recordState(dev.id, { status: 'idle', currentTaskId: null });
    expect((await service.get(dev.id)).status).toBe('idle');
    expect(slugs(await service.list({ status: 'idle' }))).toEqual(['fe-dev-2']);
  });

  it('skips a vacant post: with the cell PM retired, its cell escalates to the main PM', async () => {
    await service.retire('ux-pm');
    expect(await service.cellPm('ux_ui')).toBeNull();
    expect((await service.escalationTarget(rosterMember('ux-dev-1')))?.slug).toBe('main-pm');
    expect(await service.retired.has('ux-pm')).toBe(true);
    expect(await service.retired.has(rosterMember('ux-pm').id.toUpperCase())).toBe(true);
    expect(await service.retired.has('ux-dev-1')).toBe(false);
  });
});

describe('RetiredAgents', () => {
  it('reads the table at most once per TTL unless invalidated', async () => {
    let now = 0;
    const retired = new RetiredAgents(database.db, 1000, () => now);
    expect(await retired.has('fe-doc')).toBe(false);
    await new AgentsService(database.db).retire('fe-doc');
    expect(await retired.has('fe-doc')).toBe(false);
    now = 1001;
    expect(await retired.has('fe-doc')).toBe(true);
    await new AgentsService(database.db).retire('fe-qa');
    retired.invalidate();
    expect(await retired.has('fe-qa')).toBe(true);
  });
});

describe('actorOf', () => {
  it('maps a proven identity to its roster agent, by UUID or slug', async () => {
    const dev = rosterMember('be-dev-2');
    const expected = { id: dev.id, slug: 'be-dev-2', role: 'developer', team: 'backend' };
    expect(await service.actorOf({ id: dev.id, role: 'developer' })).toEqual(expected);
    expect(await service.actorOf({ id: 'be-dev-2', role: 'developer' })).toEqual(expected);
  });

  it('refuses an identity naming no agent, a retired one, or another role (403)', async () => {
    await expect(service.actorOf({ id: 'nobody', role: 'developer' })).rejects.toMatchObject({
      statusCode: 403,
      code: 'unknown_agent',
    });
    await expect(service.actorOf({ id: 'be-dev-2', role: 'qa' })).rejects.toMatchObject({
      statusCode: 403,
      code: 'role_mismatch',
    });
    await service.retire('fe-dev-2');
    await expect(service.actorOf({ id: 'fe-dev-2', role: 'developer' })).rejects.toMatchObject({
      code: 'unknown_agent',
    });
  });
});
