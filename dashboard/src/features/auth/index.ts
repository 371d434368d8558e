/** The signed-in session: the API client it carries, and who is signed in. */
export { useApi, useSession, useUser } from './api/session';
export { setPasswordLink, tokenFromHash } from './lib/set-password-link';
