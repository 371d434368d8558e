/**
 * The link an admin hands over for a set-password token (an invitation or a reset): the dashboard's
 * own address with the token in the fragment, `/admin/set-password#token=cms_sp_…`. In the fragment
 * because a browser never sends it to a server: it stays out of access logs, proxies and the Referer
 * of anything the page loads. The screen removes it from the address bar once read.
 */
export const setPasswordLink = (token: string): string =>
  `${window.location.origin}/admin/set-password#token=${encodeURIComponent(token)}`;

export const tokenFromHash = (hash: string): string | null =>
  new URLSearchParams(hash.replace(/^#/, '')).get('token');
