/**
 * The frame of every page: navigation on the left (a bottom bar below `lg`); on the right the
 * header, the full-width banners (agents unsandboxed, maintenance pause, parked model providers),
 * then the page. Signed out, the sign-in page replaces it all.
 */
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { $api } from '../../api/client';
import { noteSignedIn, useSessionState } from '../../api/session';
import { PauseBanner } from '../maintenance/pause-banner';
import { RateLimitBanner } from '../rate-limits/rate-limit-banner';
import { SandboxBanner } from '../sandbox/sandbox-banner';
import { Header } from './header';
import { BottomBar, Nav } from './nav';
import { SignIn } from './sign-in';

export function Banners() {
  return (
    <div data-testid="banners">
      <SandboxBanner />
      <PauseBanner />
      <RateLimitBanner />
    </div>
  );
}

export function Layout() {
  const session = $api.useQuery('get', '/api/auth/session', undefined, { retry: false, staleTime: 60_000 });
  const state = useSessionState();
  useEffect(() => {
    if (session.isSuccess) noteSignedIn();
  }, [session.isSuccess]);

  if (state === 'signed_out') return <SignIn />;
  if (session.isPending) return <p className="p-6 text-muted">Opening the panel…</p>;
  if (session.isError && state !== 'signed_in') return <SignIn problem={session.error} />;
  return (
    <div className="flex h-full">
      <Nav />
      <div className="flex min-w-0 flex-1 flex-col">
        <Header />
        <Banners />
        {/* Room under the page for the bottom bar (and the phone's home indicator) below lg. */}
        <main className="min-h-0 flex-1 overflow-y-auto pb-[calc(3.5rem+env(safe-area-inset-bottom))] lg:pb-0">
          <Outlet />
        </main>
      </div>
      <BottomBar />
    </div>
  );
}
