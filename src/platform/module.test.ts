import { describe, expect, it } from 'vitest';
import { type ModuleFace, startModules, stopModules } from './module.js';

/** Modules that write what they do into `log`; `failStop` names one whose stop throws. */
function modules(log: string[], failStop?: string): ModuleFace[] {
  return ['agents', 'tasks', 'dispatch'].map((name) => ({
    registerRoutes() {},
    async start() {
      await Promise.resolve();
      log.push(`start ${name}`);
    },
    stop() {
      log.push(`stop ${name}`);
      if (name === failStop) throw new Error(`${name} would not stop`);
    },
  }));
}

describe('starting and stopping the modules', () => {
  it('starts them in order, each after the one before settled, and stops them in reverse', async () => {
    const log: string[] = [];
    const faces = modules(log);
    await startModules(faces);
    await stopModules(faces);
    expect(log).toEqual([
      'start agents',
      'start tasks',
      'start dispatch',
      'stop dispatch',
      'stop tasks',
      'stop agents',
    ]);
  });

  it('skips a module with nothing to start or stop', async () => {
    const log: string[] = [];
    const faces = [{ registerRoutes() {} }, ...modules(log)];
    await startModules(faces);
    await stopModules(faces);
    expect(log).toHaveLength(6);
  });

  it('stops the rest when one stop fails, then reports that failure', async () => {
    const log: string[] = [];
    await expect(stopModules(modules(log, 'tasks'))).rejects.toThrow('tasks would not stop');
    expect(log).toEqual(['stop dispatch', 'stop tasks', 'stop agents']);
  });

  it('stops starting at the first start that fails', async () => {
    const log: string[] = [];
    const faces = modules(log);
    faces[1] = {
      registerRoutes() {},
      start: () => Promise.reject(new Error('tasks would not start')),
    };
    await expect(startModules(faces)).rejects.toThrow('tasks would not start');
    expect(log).toEqual(['start agents']);
  });
});
