/**
 * Fixtures shared by the gateway suites (test/) and the gateway benchmark (bench/gateway.ts), kept
 * free of test-runner imports so the benchmark can load them. Test-only; nothing imports it at run time.
 */

/** A developer plan that passes i_will_work_on's input gate. */
export const WORK_PLAN = {
  plan: 'Add a GET /health route to the API server that answers 200 with the service version read from package.json, register it before the auth hook so load balancers can probe it, and cover it with an HTTP test.',
  steps: [
    {
      title: 'Route',
      description:
        'Write the health route handler returning the version and register it on the server before auth.',
    },
    {
      title: 'Test',
      description:
        'Add an HTTP test that calls GET /health and checks the status code and the version in the body.',
    },
  ],
  technical_considerations: ['The route must not require authentication.'],
  risks: [
    { risk: 'The version lookup could fail at start', mitigation: 'Read it once at boot and fail fast.' },
  ],
};
