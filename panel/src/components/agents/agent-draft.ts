/** The agent profile form's rules: the server's limits on name, model, description and capabilities. */
export interface Draft {
  name: string;
  model: string;
  description: string;
  capabilities: string;
}

/** Problems with a draft, by field, under the server's own limits. */
export function draftProblems(draft: Draft): Partial<Record<keyof Draft, string>> {
  const problems: Partial<Record<keyof Draft, string>> = {};
  if (!draft.name.trim()) problems.name = 'Give the agent a name.';
  else if (draft.name.length > 100) problems.name = 'At most 100 characters.';
  if (draft.model.trim().length > 100) problems.model = 'At most 100 characters.';
  if (draft.description.length > 2000) problems.description = 'At most 2000 characters.';
  const capabilities = capabilityList(draft.capabilities);
  if (capabilities.length > 50) problems.capabilities = 'At most 50 capabilities.';
  else if (capabilities.some((c) => c.length > 100)) problems.capabilities = 'Each at most 100 characters.';
  return problems;
}

export const capabilityList = (text: string) =>
  text
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
