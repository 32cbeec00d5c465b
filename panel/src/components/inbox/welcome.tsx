/**
 * First run: an empty company is asked to name itself and its north star, to connect a model (with
 * what `gaffer doctor` finds missing), then given three ways to
 * start instead of an empty inbox.
 */
import { Link } from 'react-router';
import { DoctorTable } from '../models/doctor-findings';
import { Section } from '../ui/page';
import { CharterStep } from './charter-step';

export function Welcome() {
  return (
    <Section
      title="Welcome to Gaffer"
      description="Your company has no projects and no tasks yet. Name it, connect a model, then three ways to start:"
    >
      <ol className="list-decimal space-y-3 pl-5" data-testid="welcome">
        <li>
          <span className="font-semibold">Name the company and its north star</span> — the charter every agent
          reads in its briefing (objectives, constraints and brand voice are under{' '}
          <code className="font-mono">PUT /api/company-goals</code>).
          <CharterStep />
        </li>
        <li data-testid="connect-model-step">
          <span className="font-semibold">Connect a model</span> — agents are agent CLIs (Claude Code, Codex,
          Gemini CLI) that call a model provider. Connect a key, or a local OpenAI-compatible server, and
          route it on{' '}
          <Link to="/settings?tab=models" className="text-accent underline">
            Settings → Models & agents
          </Link>
          . What this server still misses:
          <div className="mt-2">
            <DoctorTable areas={['runtime', 'agent_cli', 'model_provider', 'git']} onlyProblems />
          </div>
        </li>
        <li>
          <span className="font-semibold">Add a first project</span> — the git repository your agents will
          work on (its URL, and optionally a token for private repositories). On{' '}
          <Link to="/projects" className="text-accent underline">
            Projects
          </Link>
          , each Budget & Ops setting is explained where you set it: CI-watch is on with the{' '}
          <code className="font-mono">ci.yml</code> workflow by default, and dependency updates run only when
          you give a command.
        </li>
        <li>
          <span className="font-semibold">Give the first task</span> — describe what you want done and hand it
          to the main PM; it plans, delegates to a cell, and the work comes back here for your approval.
        </li>
        <li>
          <span className="font-semibold">Or watch a demo company</span> — stop this server and run{' '}
          <code className="rounded bg-surface-2 px-1 font-mono">gaffer demo</code> (from a checkout:{' '}
          <code className="rounded bg-surface-2 px-1 font-mono">npm run gaffer -- demo</code>): simulated
          agents take a sample task through the whole pipeline to your inbox.
        </li>
      </ol>
    </Section>
  );
}
