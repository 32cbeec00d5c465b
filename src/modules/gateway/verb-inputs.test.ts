import { describe, expect, it } from 'vitest';
import { GATEWAY_ROUTES, VERBS, verbNeedsTask } from '../lifecycle/index.js';
import { DO_TOOLS, doToolInputSchema, doToolsFor, verbInputSchema } from './verb-inputs.js';

describe('verb inputs', () => {
  it('has an input schema for every verb of every route, with task_id exactly where the verb needs a task', () => {
    for (const route of GATEWAY_ROUTES) {
      for (const verb of VERBS[route]) {
        const schema = verbInputSchema(route, verb.name);
        expect(schema, `${route}/${verb.name}`).toBeDefined();
        expect(schema!.type).toBe('object');
        const needsTask = (schema!.required ?? []).includes('task_id');
        expect(needsTask, `${route}/${verb.name} task_id`).toBe(verbNeedsTask(verb));
      }
    }
  });

  it('has none for a verb the route does not have', () => {
    expect(verbInputSchema('developer', 'pass')).toBeUndefined();
    expect(verbInputSchema('qa', 'nope')).toBeUndefined();
  });

  it('describes every do-tool, and commit is for developers and documenters only', () => {
    for (const tool of DO_TOOLS) expect(doToolInputSchema(tool).type).toBe('object');
    expect(doToolsFor('developer')).toContain('commit');
    expect(doToolsFor('qa')).not.toContain('commit');
    expect(doToolsFor('qa')).toContain('evidence');
  });
});

describe('verb implementations', () => {
  it('implements every verb of every route the lifecycle lists', async () => {
    const { verbEntry } = await import('./verbs/index.js');
    for (const route of GATEWAY_ROUTES) {
      for (const verb of VERBS[route])
        expect(verbEntry(route, verb.name), `${route}/${verb.name}`).toBeDefined();
    }
  });
});
