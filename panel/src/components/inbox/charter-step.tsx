/**
 * The first-run step that names the company and its north star (PUT /api/company-goals, CEO only).
 * Once named it says so and links nowhere else: the charter reaches every agent's briefing.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { $api, queryKey } from '../../api/client';
import { Button } from '../ui/button';
import { ProblemNote } from '../ui/problem-note';

const inputClass =
  'w-full rounded-md border border-border bg-surface px-2 py-1.5 text-[13px] text-text placeholder:text-muted';

export function CharterStep() {
  const queryClient = useQueryClient();
  const goals = $api.useQuery('get', '/api/company-goals');
  const [name, setName] = useState('');
  const [northStar, setNorthStar] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = $api.useMutation('put', '/api/company-goals', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/company-goals') }),
  });

  const named = goals.data && goals.data.company_name.trim() !== '';
  if (named) {
    return (
      <p data-testid="charter-named">
        <span className="font-semibold">{goals.data.company_name}</span>
        {goals.data.north_star && <span className="text-muted"> — north star: {goals.data.north_star}</span>}.
        Every agent finds it in its briefing.
      </p>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !northStar.trim())
      return setProblem('Give both the company name and its north star.');
    setProblem(null);
    save.mutate({ body: { company_name: name.trim(), north_star: northStar.trim() } });
  };

  return (
    <form
      onSubmit={submit}
      className="mt-2 grid max-w-[720px] gap-2 sm:grid-cols-[1fr_2fr_auto]"
      data-testid="charter-form"
    >
      <label className="sr-only" htmlFor="charter-name">
        Company name
      </label>
      <input
        id="charter-name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder="Company name"
        className={inputClass}
      />
      <label className="sr-only" htmlFor="charter-north-star">
        North star
      </label>
      <input
        id="charter-north-star"
        value={northStar}
        onChange={(event) => setNorthStar(event.target.value)}
        placeholder="North star: the one outcome everything serves"
        className={inputClass}
      />
      <Button type="submit" variant="primary" disabled={save.isPending}>
        Save
      </Button>
      {problem && (
        <p role="alert" className="text-[13px] text-danger-text sm:col-span-3">
          {problem}
        </p>
      )}
      <div className="sm:col-span-3">
        <ProblemNote error={goals.error ?? save.error} prefix="The charter" />
      </div>
    </form>
  );
}
