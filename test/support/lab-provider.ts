/**
 * A model provider that serves nothing (nothing listens at its base URL): enough for tests whose
 * agents are scripted to route a role, or an experiment's arm, to one of its models by name.
 */
export const LAB_PROVIDER = {
  name: 'lab',
  kind: 'openai',
  base_url: 'http://127.0.0.1:9/v1',
  default_model: 'scripted-steady',
  api_key: 'sk-lab',
} as const;
