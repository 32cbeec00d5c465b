/** Placeholder for a page whose turn has not come yet (only on the panel branch; filled before merge). */
import { Page } from './page';

export function NotBuiltYet({ title }: { title: string }) {
  return (
    <Page title={title}>
      <p className="text-muted" data-testid="not-built">
        This page is not built yet.
      </p>
    </Page>
  );
}
