import type { FastifyInstance } from 'fastify';
import type { Site } from './content.js';
import { call } from './factories.js';
import { waitFor } from './hooks.js';

/** An ISO time `ms` from now (a schedule's `at`). */
export const inMs = (ms: number): string => new Date(Date.now() + ms).toISOString();

export interface ScheduleBody {
  id: string;
  action: 'publish' | 'unpublish';
  entryId: string | null;
  pageId: string | null;
  at: string;
  status: 'pending' | 'done' | 'failed' | 'canceled';
  createdBy: { id: string; email: string };
  createdAt: string;
  executedAt: string | null;
  error: string | null;
  /** Only in a project with locales (contract §14). */
  locale?: string;
}

/** POST /v1/schedules as the site's editor (or with `headers`). */
export const postSchedule = (app: FastifyInstance, site: Site, payload: unknown, headers = site.editing) =>
  call(app, { method: 'POST', url: '/v1/schedules', headers, payload: payload as object });

/** Creates a schedule that must be accepted; returns it. */
export async function createSchedule(
  app: FastifyInstance,
  site: Site,
  payload: Record<string, unknown>,
  headers = site.editing,
): Promise<ScheduleBody> {
  const res = await postSchedule(app, site, payload, headers);
  if (res.status !== 201) throw new Error(`schedule refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Every schedule of the site's project, through the API (all pages of the list). */
export async function listSchedules(
  app: FastifyInstance,
  site: Site,
  query = '',
  limit = 200,
): Promise<ScheduleBody[]> {
  const all: ScheduleBody[] = [];
  let cursor: string | undefined;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor) params.set('cursor', cursor);
    const res = await call(app, { method: 'GET', url: `/v1/schedules?${params}`, headers: site.editing });
    if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
    all.push(...res.body.data);
    cursor = res.body.meta?.nextCursor;
  } while (cursor);
  return all;
}

export async function scheduleById(app: FastifyInstance, site: Site, id: string): Promise<ScheduleBody> {
  const found = (await listSchedules(app, site)).find((s) => s.id === id);
  if (!found) throw new Error(`schedule ${id} is not listed`);
  return found;
}

/** Waits until the schedule has left `pending` (the worker ran it); returns it. */
export async function settled(
  app: FastifyInstance,
  site: Site,
  id: string,
  timeoutMs = 20_000,
): Promise<ScheduleBody> {
  const s = await waitFor(
    async () => {
      const s = await scheduleById(app, site, id);
      return s.status !== 'pending' && s;
    },
    timeoutMs,
    `schedule ${id} to run`,
  );
  return s as ScheduleBody;
}

/** The entry's history through the API, newest first. */
export async function historyOf(app: FastifyInstance, site: Site, entryId: string) {
  const res = await call(app, {
    method: 'GET',
    url: `/v1/content/${entryId}/history?limit=200`,
    headers: site.editing,
  });
  if (res.status !== 200) throw new Error(`history failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as {
    action: string;
    fields: Record<string, unknown>;
    actor: { id: string; email: string };
    at: string;
  }[];
}
