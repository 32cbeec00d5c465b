/** Signing out: the server ends the session, then the sign-in page shows. */
import { fetchClient } from '../../api/client';
import { noteSignedOut } from '../../api/session';

export const signOut = () => void fetchClient.DELETE('/api/auth/session').then(noteSignedOut);
