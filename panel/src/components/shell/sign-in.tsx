/**
 * Shown when there is no valid session: how to get in (a fresh login link from `gaffer login-url`).
 * The page that asked is remembered (localStorage `gaffer-return-to`, read by the login page for an
 * hour), so a link from a notification — a task, its change — lands there once signed in.
 */
import { useEffect } from 'react';
import { problemOf } from '../../api/problem';

/** Read by the login page (src/platform/http/auth/login-page.ts) once the session is made. */
const RETURN_TO_KEY = 'gaffer-return-to';

export function SignIn({ problem }: { problem?: unknown }) {
  const detail = problem ? problemOf(problem) : null;
  const networkDown = detail?.code === 'network_error';
  useEffect(() => {
    const path = `${location.pathname}${location.search}`;
    if (location.pathname !== '/')
      localStorage.setItem(RETURN_TO_KEY, JSON.stringify({ path, at: Date.now() }));
  }, []);
  return (
    <main className="mx-auto mt-[12vh] max-w-[560px] px-6">
      <h1 className="text-[22px] font-semibold">Sign in to Gaffer</h1>
      {networkDown ? (
        <p className="mt-3">
          Gaffer is not answering ({detail?.message}). Check that the server is running, then reload.
        </p>
      ) : (
        <>
          <p className="mt-3">Your panel session has expired or you are not signed in.</p>
          <p className="mt-3">
            Get a fresh sign-in link on the machine that runs Gaffer and open it in this browser:
          </p>
          <pre className="mt-2 overflow-x-auto rounded-md border border-border bg-surface px-3 py-2 font-mono">
            gaffer login-url
          </pre>
          <p className="mt-3 text-muted">
            (From a checkout: <code className="font-mono">npm run gaffer -- login-url</code>.) The link signs
            you in and opens {location.pathname === '/' ? 'the panel' : 'this page again'}.
          </p>
        </>
      )}
    </main>
  );
}
