/**
 * An agent CLI that refuses its command line — the real Codex CLI handed `--full-auto`, a flag it
 * no longer has, as the built-in template once did — exits with code 2 within a second of every
 * spawn. The CEO gets one notification quoting the CLI's own error and saying what to do, and the
 * dispatcher backs the agent off instead of respawning it at once (the run-ended wake would
 * otherwise start it again in the same second, three times, and stall the task).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/platform/process/index.js';
import {
  type CliCompany,
  expectToldOnceAndHeldOff,
  giveNoteTask,
  startCliCompany,
} from './support/agent-cli.js';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the failing-CLI suite: ${bwrap.reason}`);

describe.skipIf(!bwrap.ok)('an agent CLI that refuses its command line', () => {
  let cli: CliCompany;

  beforeAll(async () => {
    cli = await startCliCompany('custom', {
      GAFFER_AGENT_COMMAND_CUSTOM: 'codex exec --full-auto --skip-git-repo-check {prompt}',
    });
  }, 90_000);

  afterAll(async () => {
    await cli?.close();
  });

  it('is explained to the CEO once, in its own words, and backed off', async () => {
    const { taskId } = await giveNoteTask(cli, 'notes.md');
    const alert = await expectToldOnceAndHeldOff(cli, 'be-dev-1');
    expect(alert.subject).toBe('The custom agent CLI fails as it starts');
    expect(alert.body).toContain("be-dev-1's custom run failed on start: exited with code 2");
    expect(alert.body).toContain("unexpected argument '--full-auto'");
    expect(alert.body).toContain('refused its command line');
    expect(alert.related_task_id).toBe(taskId);
  }, 120_000);
});
