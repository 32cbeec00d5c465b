/** The intake chat's start form: what the work is for (a project, a product or several projects) and the first message. */
import { useState } from 'react';
import { $api } from '../../api/client';
import { Button } from '../ui/button';
import { ChoiceButtons } from '../ui/choice-buttons';

export type IntakeScope = { project_id: string } | { product_id: string } | { project_ids: string[] };
type Mode = 'project' | 'product' | 'several';

const selectClass = 'h-8 w-full rounded-md border border-border bg-surface px-2';

export function ScopeForm({
  pending,
  onStart,
}: {
  pending: boolean;
  onStart: (scope: IntakeScope, initialMessage: string) => void;
}) {
  const [mode, setMode] = useState<Mode>('project');
  const [projectId, setProjectId] = useState('');
  const [productId, setProductId] = useState('');
  const [several, setSeveral] = useState<string[]>([]);
  const [message, setMessage] = useState('');
  const projects =
    $api.useQuery('get', '/api/projects', { params: { query: { limit: 500 } } }).data?.projects ?? [];
  const products = $api.useQuery('get', '/api/products', {}).data?.products ?? [];
  const scope: IntakeScope | null =
    mode === 'project'
      ? projectId
        ? { project_id: projectId }
        : null
      : mode === 'product'
        ? productId
          ? { product_id: productId }
          : null
        : several.length > 0
          ? { project_ids: several }
          : null;

  return (
    <form
      aria-label="Start an intake interview"
      className="max-w-[640px] space-y-4 rounded-lg border border-border bg-surface p-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (scope) onStart(scope, message);
      }}
    >
      <ChoiceButtons
        legend="The work is for"
        options={[
          { value: 'project', label: 'A project' },
          { value: 'product', label: 'A product' },
          { value: 'several', label: 'Several projects' },
        ]}
        value={mode}
        onChange={(value) => setMode(value as Mode)}
      />
      {mode === 'project' && (
        <label className="block space-y-1">
          <span className="font-medium">Project</span>
          <select className={selectClass} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            <option value="">Choose a project…</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {mode === 'product' && (
        <label className="block space-y-1">
          <span className="font-medium">Product</span>
          <select className={selectClass} value={productId} onChange={(e) => setProductId(e.target.value)}>
            <option value="">Choose a product…</option>
            {products.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {mode === 'several' && (
        <fieldset className="space-y-1">
          <legend className="font-medium">Projects</legend>
          {projects.map((p) => (
            <label key={p.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={several.includes(p.id)}
                onChange={(e) =>
                  setSeveral((list) =>
                    e.target.checked ? [...list, p.id] : list.filter((id) => id !== p.id),
                  )
                }
              />
              {p.name}
            </label>
          ))}
        </fieldset>
      )}
      <label className="block space-y-1">
        <span className="font-medium">What do you need?</span>
        <textarea
          rows={3}
          className="w-full rounded-md border border-border bg-surface px-2 py-1"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          placeholder="Describe the work in a sentence or two; the interviewer asks the rest."
        />
      </label>
      <Button type="submit" variant="primary" disabled={!scope || pending}>
        Start interview
      </Button>
    </form>
  );
}
