/**
 * The link an admin hands over for an invitation of an existing account (contract §23):
 * `/admin/invitations/accept#token=cms_inv_…`. The token sits in the fragment, as a set-password link's
 * does, so a browser never sends it to a server (access logs, proxies, Referer). Opened signed out, the
 * sign-in shows at that same address and the accept screen follows it, fragment and all.
 */
export const invitationLink = (token: string): string =>
  `${window.location.origin}/admin/invitations/accept#token=${encodeURIComponent(token)}`;
