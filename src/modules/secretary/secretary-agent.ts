/**
 * The secretary as a chat agent: the CEO's chief of staff. It knows the charter; each high-impact
 * action it takes becomes a pending directive the CEO confirms (shown as a `directive` event), and
 * a message it relays to an agent goes out at once.
 */
import type { Identity } from '../../platform/http/auth/index.js';
import type { CompanyGoalsModule } from '../company-goals/index.js';
import { type ChatAgent, type SessionRow, type ToolOutcome, toolInput } from '../live-chat/index.js';
import {
  DIRECTIVE_DESCRIPTIONS,
  DIRECTIVE_INPUTS,
  DIRECTIVE_KINDS,
  type DirectiveKind,
} from './directive-kinds.js';
import type { DirectivesService } from './directives.js';

const checks = Object.fromEntries(
  DIRECTIVE_KINDS.map((kind) => [kind, toolInput<Record<string, unknown>>(DIRECTIVE_INPUTS[kind])]),
) as Record<DirectiveKind, ReturnType<typeof toolInput<Record<string, unknown>>>>;

const SYSTEM = `You are the secretary, the CEO's chief of staff in a software company run by AI agents.
You answer briefly and act through your tools. Changing the charter, cancelling/pausing/resuming or
reprioritizing a task, announcing to the agents and approving a pitch are directives: call the tool,
and tell the CEO it waits for their confirmation in the directive queue. Relaying a message to one
agent goes out at once. Never claim an action is done before it is.`;

const isKind = (name: string): name is DirectiveKind => (DIRECTIVE_KINDS as readonly string[]).includes(name);

export function secretaryAgent(
  subject: { id: string; role: string },
  directives: () => DirectivesService,
  companyGoals: Pick<CompanyGoalsModule, 'service'>,
): ChatAgent {
  return {
    subject,
    async systemPrompt() {
      const charter = await companyGoals.service.get();
      return `${SYSTEM}\n\nThe charter now: ${JSON.stringify({
        company_name: charter.company_name,
        north_star: charter.north_star,
        objectives: charter.objectives,
        constraints: charter.constraints,
      })}`;
    },
    tools: DIRECTIVE_KINDS.map((kind) => ({
      name: kind,
      description: DIRECTIVE_DESCRIPTIONS[kind],
      input_schema: checks[kind].jsonSchema,
    })),
    async useTool(session: SessionRow, call): Promise<ToolOutcome> {
      if (!isKind(call.name)) return { result: `Unknown tool ${call.name}.`, isError: true };
      const checked = checks[call.name].check(call.input);
      if (!checked.ok) return { result: `Not valid: ${checked.problems}`, isError: true };
      const { rationale, ...payload } = checked.value;
      if (call.name === 'relay_message') {
        const owner: Identity = { id: session.ownerId, role: 'ceo', team: '', via: 'session' };
        const done = await directives().relayNow(checked.value, session.id, owner);
        if (done.status === 'failed')
          return { result: `The message could not be relayed: ${done.error}`, isError: true };
        return {
          result: `Relayed to ${String(payload.to)}.`,
          shown: [{ kind: 'directive', data: { ...done } }],
        };
      }
      const filed = await directives().propose(call.name, payload, String(rationale ?? ''), session.id);
      return {
        result: `Directive ${filed.id} (${call.name}) is pending the CEO's confirmation in the directive queue.`,
        shown: [{ kind: 'directive', data: { ...filed } }],
      };
    },
  };
}
