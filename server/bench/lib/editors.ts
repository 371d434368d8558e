/**
 * The editors' write benches' shared setup (bench/publish, bench/writes): a project, through the API,
 * with one page of `editors` entries of a two-text-field Card, and a signed-in editor's headers.
 */

/** A JSON request that must succeed: its `data`, or an error naming the call. */
export async function json(url: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const body = (await res.json()) as any;
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** A new project through the API, and its admin signed in: the project's id, key and the admin's token. */
export async function newBenchProject(base: string, name: string) {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery staple';
  const created = await json(`${base}/v1/projects`, {
    method: 'POST',
    body: JSON.stringify({ name, admin: { email, password } }),
  });
  const { token } = await json(`${base}/v1/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email, password }),
  });
  return { id: created.project.id as string, key: created.project.apiKey as string, token: token as string };
}

/** A project with one page of `editors` entries: an editor's headers and the entries' ids. */
export async function seedEditorsPage(base: string, editors: number, name: string) {
  const { key, token } = await newBenchProject(base, name);
  const components = Array.from({ length: editors }, (_, i) => ({
    componentId: 'Card',
    instanceKey: `card-${String(i).padStart(2, '0')}`,
    fields: [
      { key: 'title', type: 'text' },
      { key: 'body', type: 'text' },
    ],
  }));
  await json(`${base}/v1/definitions/sync`, {
    method: 'POST',
    headers: { 'x-cms-key': key },
    body: JSON.stringify({ pageId: '/bench', components }),
  });
  const headers = { authorization: `Bearer ${token}`, 'x-cms-key': key, 'content-type': 'application/json' };
  const entries = (await json(`${base}/v1/content/%2Fbench`, { headers })) as { id: string }[];
  return { headers, ids: entries.map((e) => e.id) };
}
