/**
 * A page's components in the order its site renders them (issue 37): the order in which they arrive in
 * a sync's `components`. Pure, so the rule has unit tests beside it; docs/api.md states it for users.
 *
 * A sync need not list the whole page: the SDK sends only the components that changed since it last
 * synced, and a component rendered on some visits only (a banner) arrives on its own. So a sync says
 * how the components it lists are ordered among themselves, and nothing about the others:
 *
 * 1. Components the page already has keep the places they hold; those the sync lists are put in
 *    those same places in the order sent. Components it leaves out stay exactly where they were.
 * 2. A new component goes right after the one sent before it; the first ones sent, if new, go right
 *    before the first listed component the page already has; and a sync of new components only
 *    appends them, in the order sent, at the end.
 *
 * So a full sync (every component, in render order, as the SDK sends after each reload) always
 * leaves the page in render order, whatever came before; a partial one never moves what it does not
 * list. Rejected: placing each sync's components first (or last), which would move the whole page
 * every time one component changed; and dropping the order of components left out, which would
 * make the order depend on which components changed last.
 */
export function pageOrder(stored: readonly string[], sent: readonly string[]): string[] {
  const onPage = new Set(stored);
  const listed = new Set(sent);
  const sentExisting = sent.filter((key) => onPage.has(key));
  let next = 0;
  const order = stored.map((key) => (listed.has(key) ? (sentExisting[next++] as string) : key));
  const anchor = sentExisting[0];
  sent.forEach((key, i) => {
    if (onPage.has(key)) return;
    const previous = i > 0 ? order.indexOf(sent[i - 1] as string) : -1;
    if (previous >= 0) order.splice(previous + 1, 0, key);
    else if (anchor !== undefined) order.splice(order.indexOf(anchor), 0, key);
    else order.push(key);
  });
  return order;
}
