import { describe, expect, it } from 'vitest';
import type { ProjectRow } from '../projects/index.js';
import { BranchFileReader, type ReadBranchFile } from './file-reader.js';

const project = { id: '6f1c1d2e-0000-4000-8000-000000000001', slug: 'shop' } as ProjectRow;
const projects = { get: async () => project };
const TIP = 'a'.repeat(40);

/** A reader that knows the branch tips (as the workspaces mirror does): main only. */
const readMain: ReadBranchFile = async (_project, branch, path) => {
  if (branch !== 'main') return null;
  const text = path === 'a.txt' ? 'one\ntwo\nthree\n' : null;
  return { commit: TIP, file: text === null ? null : { kind: 'text', text, size: text.length } };
};

describe('BranchFileReader', () => {
  it('answers the commit the file was read at and the lines asked for', async () => {
    const slice = await new BranchFileReader(projects, readMain).slice({
      project: 'shop',
      branch: 'main',
      path: './a.txt',
      start: 2,
    });
    expect(slice).toMatchObject({
      path: 'a.txt',
      commit: TIP,
      totalLines: 3,
      window: { start: 2, end: 3, truncated: false },
      lines: ['two', 'three'],
    });
  });

  it('tells a missing branch from a missing file when the reader knows the tips', async () => {
    const reader = new BranchFileReader(projects, readMain);
    await expect(reader.slice({ project: 'shop', branch: 'gone', path: 'a.txt' })).rejects.toMatchObject({
      statusCode: 404,
      message: 'project shop has no branch gone',
    });
    await expect(reader.slice({ project: 'shop', branch: 'main', path: 'b.txt' })).rejects.toMatchObject({
      statusCode: 404,
      message: 'there is no file b.txt on branch main of project shop',
    });
  });

  it('refuses a bad path before reading anything', async () => {
    let reads = 0;
    const counting: ReadBranchFile = async (...args) => {
      reads++;
      return readMain(...args);
    };
    const reader = new BranchFileReader(projects, counting);
    await expect(reader.slice({ project: 'shop', branch: 'main', path: '../x' })).rejects.toMatchObject({
      statusCode: 422,
    });
    expect(reads).toBe(0);
  });
});
