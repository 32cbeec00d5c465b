/**
 * What a run's network fence refused — each distinct destination with why and how often — on the
 * agent's page. An agent reaches its gateway and its model only; anything else it tried (a
 * registry not yet allowed, the host's database, a prompt-injected exfiltration) is listed here.
 */
const SHOWN = 5;

export interface Blocked {
  host: string;
  port: number;
  reason: string;
  count: number;
}

const destination = (b: Blocked) => `${b.host.includes(':') ? `[${b.host}]` : b.host}:${b.port}`;

export function BlockedConnections({ blocked, total }: { blocked: Blocked[]; total: number }) {
  return (
    <div data-testid="agent-blocked">
      <p className="text-warn-text">
        {total} connection{total === 1 ? '' : 's'} refused by its network fence
      </p>
      <ul className="mt-1 space-y-0.5">
        {blocked.slice(0, SHOWN).map((b) => (
          <li key={`${destination(b)} ${b.reason}`} className="break-all">
            <span className="font-mono">{destination(b)}</span> — {b.reason}
            {b.count > 1 && <span className="text-muted"> (×{b.count})</span>}
          </li>
        ))}
      </ul>
      {blocked.length > SHOWN && <p className="text-muted">and {blocked.length - SHOWN} more</p>}
      <p className="text-muted">
        Allow a registry on the project's Budget & Ops card, or for every project in
        GAFFER_AGENT_NETWORK_ALLOW.
      </p>
    </div>
  );
}
