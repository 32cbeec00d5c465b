/**
 * The acting agent behind a proven identity, as the roster answers it with its lookups cached: a
 * roster edit is seen at once by the service that made it, and by another replica's service
 * within the cache TTL; the role lists the org helpers read follow the same rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/stores.js';
import type { Database } from '../../platform/db/client.js';
import type { Identity } from '../../platform/http/auth/identity.js';
import { AgentsService, seedDefaultCompany } from '../agents/index.js';
import { actorFromIdentity } from './actor.js';

const TTL_MS = 300;
let database: Database;
let here: AgentsService;
let replica: AgentsService;
beforeAll(async () => {
  database = await openTestDatabase();
  await seedDefaultCompany(database.db);
  here = new AgentsService(database.db, undefined, TTL_MS);
  replica = new AgentsService(database.db, undefined, TTL_MS);
});
afterAll(() => database.close());

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A developer's proven identity (the team is the token's, not the roster's). */
const developer = (id: string): Identity => ({ id, role: 'developer', team: '', via: 'token' });

describe('the acting agent', () => {
  it('follows an edit at once where it was made, and within the TTL on another replica', async () => {
    expect(await actorFromIdentity(here, developer('ux-dev-2'))).toMatchObject({ team: 'ux_ui' });
    expect(await actorFromIdentity(replica, developer('ux-dev-2'))).toMatchObject({ team: 'ux_ui' });

    await here.update('ux-dev-2', { team: 'frontend' });
    expect(await actorFromIdentity(here, developer('ux-dev-2'))).toMatchObject({ team: 'frontend' });
    await wait(TTL_MS + 50);
    expect(await actorFromIdentity(replica, developer('ux-dev-2'))).toMatchObject({ team: 'frontend' });
  });

  it('is refused once retired, and a new agent is known at once everywhere', async () => {
    await replica.actorOf(developer('ux-dev-1'));
    await here.retire('ux-dev-1');
    await expect(actorFromIdentity(here, developer('ux-dev-1'))).rejects.toMatchObject({
      statusCode: 403,
      code: 'unknown_agent',
    });
    await wait(TTL_MS + 50);
    await expect(actorFromIdentity(replica, developer('ux-dev-1'))).rejects.toMatchObject({
      code: 'unknown_agent',
    });

    await expect(actorFromIdentity(replica, developer('ux-dev-9'))).rejects.toMatchObject({
      code: 'unknown_agent',
    });
    await here.create({ slug: 'ux-dev-9', name: 'Dev Nine', role: 'developer', team: 'ux_ui' });
    expect(await actorFromIdentity(replica, developer('ux-dev-9'))).toMatchObject({ slug: 'ux-dev-9' });
  });

  it('the role lists follow edits the same way', async () => {
    const slugs = async (service: AgentsService) =>
      (await service.byRole('qa', 'backend')).map((a) => a.slug);
    expect(await slugs(here)).toEqual(['be-qa']);
    expect(await slugs(replica)).toEqual(['be-qa']);
    await here.create({ slug: 'be-qa-2', name: 'Second QA', role: 'qa', team: 'backend' });
    expect(await slugs(here)).toEqual(['be-qa', 'be-qa-2']);
    await wait(TTL_MS + 50);
    expect(await slugs(replica)).toEqual(['be-qa', 'be-qa-2']);
  });
});
