/**
 * An agent CLI that refuses its command line — the real Codex CLI handed `--full-auto`, a flag it
 * no longer has, as the built-in template once did — exits with code 2 within a second of every
 * spawn. The CEO gets one notification quoting the CLI's own error and saying what to do, and the
 * dispatcher backs the agent off instead of respawning it at once (the run-ended wake would
 * otherwise start it again in the same second, three times, and stall the task).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/platform/process/index.js';
import { type CliCompany, giveNoteTask, startCliCompany } from './support/agent-cli.js';
import { eventually } from './support/replicas.js';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the failing-CLI suite: ${bwrap.reason}`);

interface Notification {
  subject: string;
  body: string;
  related_task_id: string | null;
}

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
    const { server } = cli;
    const { taskId } = await giveNoteTask(cli, 'notes.md');
    const alerts = async () =>
      (
        (await (await server.asCeo('/api/notifications?limit=100')).json()) as {
          notifications: Notification[];
        }
      ).notifications.filter((n) => n.subject.includes('agent CLI fails as it starts'));
    const [alert] = await eventually(async () => {
      const found = await alerts();
      expect(found.length, server.output()).toBeGreaterThan(0);
      return found;
    }, 60_000);
    expect(alert!.subject).toBe('The custom agent CLI fails as it starts');
    expect(alert!.body).toContain("be-dev-1's custom run failed on start: exited with code 2");
    expect(alert!.body).toContain("unexpected argument '--full-auto'");
    expect(alert!.body).toContain('refused its command line');
    expect(alert!.related_task_id).toBe(taskId);

    type Dispatcher = { passes: number; held_agents: { agent_id: string; until: string; why: string }[] };
    const dispatcher = async () =>
      (await (await server.asCeo('/api/orchestrator/dispatcher')).json()) as Dispatcher;
    const held = (await dispatcher()).held_agents.find((h) => h.why === 'spawn_failed');
    expect(held, JSON.stringify(await dispatcher())).toBeDefined();
    expect(new Date(held!.until).getTime() - Date.now()).toBeGreaterThan(15_000);

    // Three more passes (one a second) start nothing for it, and the failure is not told again.
    const before = (await dispatcher()).passes;
    await eventually(
      async () => expect((await dispatcher()).passes).toBeGreaterThanOrEqual(before + 3),
      20_000,
    );
    const { runs } = (await (await server.asCeo('/api/stream/be-dev-1')).json()) as { runs: unknown[] };
    expect(runs).toHaveLength(1);
    expect(await alerts()).toHaveLength(1);
  }, 120_000);
});
