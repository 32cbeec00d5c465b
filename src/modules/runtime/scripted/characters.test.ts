import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UsageLineReader } from '../usage-lines.js';
import { CATALOG, characterOf, findingsDrawn, usageLine } from './characters.js';

describe('scripted models with a character', () => {
  it('reads the catalog and declared figures, and no character from any other model', () => {
    expect(characterOf('scripted-careful')).toEqual({
      model: 'scripted-careful',
      ...CATALOG['scripted-careful'],
    });
    expect(characterOf('scripted:qa=0.8, findings=2,tokens=4000,price=3,seed=7')).toEqual({
      model: 'scripted:qa=0.8, findings=2,tokens=4000,price=3,seed=7',
      firstPassQa: 0.8,
      findings: 2,
      tokens: 4000,
      pricePerMillion: 3,
      seed: 7,
    });
    for (const other of [
      null,
      '',
      'gpt-5',
      'scripted:',
      'scripted:qa=2',
      'scripted:speed=3',
      'scripted:qa=x',
    ])
      expect(characterOf(other), String(other)).toBeNull();
  });

  it('passes first revisions at its declared rate, the same way every time, and every second revision', () => {
    const tasks = Array.from({ length: 2000 }, () => randomUUID());
    const passRate = (model: string) => {
      const character = characterOf(model)!;
      return tasks.filter((id) => findingsDrawn(character, id, 0) === 0).length / tasks.length;
    };
    expect(passRate('scripted-careful')).toBeCloseTo(0.9, 1);
    expect(passRate('scripted-hasty')).toBeCloseTo(0.4, 1);
    const hasty = characterOf('scripted-hasty')!;
    const failed = tasks.filter((id) => findingsDrawn(hasty, id, 0) > 0);
    expect(failed.every((id) => findingsDrawn(hasty, id, 0) === 3)).toBe(true);
    expect(failed.every((id) => findingsDrawn(hasty, id, 1) === 0)).toBe(true);
    // Another seed decides other tasks.
    const reseeded = characterOf('scripted:qa=0.4,findings=3,seed=99')!;
    expect(tasks.filter((id) => findingsDrawn(reseeded, id, 0) > 0)).not.toEqual(failed);
  });

  it('books its tokens and cost through the usage reader the agent CLIs use', () => {
    const line = usageLine(characterOf('scripted:tokens=5000,price=2')!)!;
    const [usage] = new UsageLineReader('scripted-x').push(line);
    expect(usage).toMatchObject({ input_tokens: 4000, output_tokens: 1000, run_cost_usd: 0.01 });
    expect(usageLine(characterOf('scripted:qa=0.5')!)).toBeNull();
  });
});
