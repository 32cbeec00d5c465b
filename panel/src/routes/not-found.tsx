/** A panel URL that names no page. */
import { Link } from 'react-router';
import { Page } from '../components/ui/page';

export default function NotFoundPage() {
  return (
    <Page title="No such page">
      <p>
        Nothing lives at this address. Go to the{' '}
        <Link className="text-accent underline" to="/">
          inbox
        </Link>
        .
      </p>
    </Page>
  );
}
