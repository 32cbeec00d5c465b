/**
 * Writes decided on the task view a caller holds (the gateway's case): one statement while the task
 * is as the view shows it, the authoritative path (a fresh read, decided again) once someone else
 * wrote it — so nobody's change is overwritten, and every refusal names the task as it is now.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject } from '../../../test/fixtures-task-rows.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { rosterMember } from '../agents/index.js';
import type { TasksService } from './service.js';
import { taskBody } from './test-fixtures.js';
import { type Actor, type CreateTaskInput, SYSTEM_ACTOR } from './types.js';

let t: TestApp;
let tasks: TasksService;
let projectId: string;
beforeAll(async () => {
  t = await startTestApp();
  tasks = t.modules.tasks.service;
  projectId = await insertProject(t.platform.database.db);
});
afterAll(() => t.close());

const actor = (slug: string): Actor => {
  const member = rosterMember(slug);
  return { id: member.id, slug, role: member.role, team: member.team ?? null };
};

/** A new task, as a read of it answers (the view a caller holds). */
const open = async (fields: Record<string, unknown> = {}) => {
  const created = await tasks.create(
    taskBody({ project_id: projectId, ...fields }) as unknown as CreateTaskInput,
    SYSTEM_ACTOR,
  );
  return tasks.get(created.id);
};

describe('transitions on a view in hand', () => {
  it('keep what another writer changed since the view was read', async () => {
    const dev = actor('be-dev-1');
    const started = await tasks.transition(
      await tasks.claim(await open({ assigned_to: 'be-dev-1' }), dev),
      'start',
      dev,
    );
    await tasks.recordFacts(started.id, { markers: { ops_checked: true } }, SYSTEM_ACTOR, {
      action: 'ops_check',
    });
    const released = await tasks.transition(started, 'unclaim', dev, { reason: 'Handing it back.' });
    expect(released).toMatchObject({ status: 'pending', active_claimant_id: null });
    expect(released.markers).toMatchObject({ ops_checked: true });
    const trail = (await tasks.events(started.id)).map((e) => [e.action, e.from_status, e.to_status]);
    expect(trail.slice(-2)).toEqual([
      ['ops_check', 'in_progress', 'in_progress'],
      ['unclaim', 'in_progress', 'pending'],
    ]);
  });

  it('are refused as the task is now, not as the view shows it', async () => {
    const dev = actor('be-dev-2');
    const view = await tasks.transition(
      await tasks.claim(await open({ assigned_to: 'be-dev-2' }), dev),
      'start',
      dev,
    );
    await tasks.update(view.id, { status: 'cancelled', force: true, reason: 'Dropped.' }, actor('ceo'));
    await expect(
      tasks.transition(view, 'unclaim', dev, { reason: 'Handing it back.' }),
    ).rejects.toMatchObject({
      statusCode: 409,
      details: expect.objectContaining({ status: 'cancelled' }),
    });
    expect((await tasks.get(view.id)).status).toBe('cancelled');
  });
});

describe('claims on a view in hand', () => {
  it('claim the task as the view shows it', async () => {
    const claimed = await tasks.claim(await open({ team: 'frontend' }), actor('fe-dev-1'));
    expect(claimed).toMatchObject({ status: 'claimed', active_claimant_id: actor('fe-dev-1').id });
  });

  it('follow the task to the team it was moved to since the view was read', async () => {
    const view = await open({ team: 'ux_ui' });
    await tasks.update(view.id, { team: 'frontend', reason: 'Wrong cell.' }, actor('ceo'));
    await expect(tasks.claim(view, actor('ux-dev-2'))).rejects.toMatchObject({ statusCode: 403 });
    expect((await tasks.get(view.id)).active_claimant_id).toBeNull();
  });

  it('name the agent that claimed it since the view was read', async () => {
    const view = await open({ team: 'ux_ui' });
    await tasks.claim(view.id, actor('ux-dev-1'));
    await expect(tasks.claim(view, actor('ux-dev-2'))).rejects.toMatchObject({
      statusCode: 409,
      code: 'already_claimed',
      details: expect.objectContaining({ owner: expect.objectContaining({ slug: 'ux-dev-1' }) }),
    });
  });
});

describe('facts', () => {
  it('from concurrent writers of different notes all land', async () => {
    const task = await open();
    await Promise.all(
      ['qa', 'pm', 'documenter', 'developer'].map((role) =>
        tasks.recordFacts(task.id, { notes: { [role]: { summary: `${role} was here` } } }, SYSTEM_ACTOR, {
          action: 'note',
        }),
      ),
    );
    expect(Object.keys((await tasks.get(task.id)).notes).sort()).toEqual([
      'developer',
      'documenter',
      'pm',
      'qa',
    ]);
  });
});
