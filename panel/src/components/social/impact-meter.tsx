/**
 * A draft's impact bar: the score as a bar (green ≥ 80, amber ≥ 50, red below) and the rubric
 * rules the draft fails, each with the points it costs. The rubric itself lives on the server
 * (src/modules/x-posts/impact-bar.ts); the panel only shows the result.
 */
import type { paths } from '../../api/client';

export type XPost =
  paths['/api/x/posts']['get']['responses'][200]['content']['application/json']['posts'][number];

function look(score: number): { bar: string; text: string } {
  if (score >= 80) return { bar: 'bg-ok', text: 'text-ok' };
  if (score >= 50) return { bar: 'bg-warn', text: 'text-warn-text' };
  return { bar: 'bg-danger', text: 'text-danger-text' };
}

export function ImpactMeter({ impact }: { impact: XPost['impact'] }) {
  const { bar, text } = look(impact.score);
  return (
    <div className="space-y-1.5" data-testid="impact-bar" data-score={impact.score}>
      <div className="flex items-center gap-3">
        <span className="w-24 shrink-0 font-medium">Impact bar</span>
        <div aria-hidden className="h-2 flex-1 overflow-hidden rounded-full bg-surface-2">
          <div className={`h-full ${bar}`} style={{ width: `${(impact.score / impact.max) * 100}%` }} />
        </div>
        <span className={`w-16 text-right font-mono font-semibold ${text}`}>
          {impact.score}/{impact.max}
          <span className="sr-only"> impact score</span>
        </span>
      </div>
      {impact.failed.length > 0 ? (
        <ul className="space-y-0.5 pl-27 text-muted" aria-label="Rules this draft fails">
          {impact.failed.map((rule) => (
            <li key={rule.rule} data-testid={`failed-${rule.rule}`}>
              <span className="font-mono text-xs text-danger-text">−{rule.points}</span> {rule.label}
            </li>
          ))}
        </ul>
      ) : (
        <p className="pl-27 text-ok">Passes every rule.</p>
      )}
    </div>
  );
}
