import type { Schemas } from '@folio/client';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import {
  api,
  asAdmin,
  entryOf,
  folioForThisFile,
  newSite,
  patchEntry,
  visitorEntries,
} from './support/folio';
import { FOOTER, HERO, HOME, homePage } from './support/page-fixture';

/**
 * Workflow 5: schedule a publish or unpublish of an entry or a page at a date and time in the editor's
 * time zone (the browser runs in Auckland, the server in UTC), list the page's schedules, cancel one,
 * and see one run.
 */
const folio = folioForThisFile();
const ZONE = 'Pacific/Auckland';
test.use({ timezoneId: ZONE });

type ScheduleData = Schemas['Schedule'];

/** An instant as a wall-clock time in ZONE, the way a datetime-local input takes it. */
function wallTime(date: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

test('schedule entries and a page in the editor’s time zone, list them, cancel one, and watch one run', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const site = await newSite(folio());
  await homePage(folio(), site);
  const footer = await entryOf(folio(), site, HOME, FOOTER.instanceKey);
  await patchEntry(folio(), site, site.admin.token, footer.id, {
    fields: { note: 'Open daily' },
    status: 'published',
  });
  const schedules = () => api<ScheduleData[]>(folio(), 'GET', '/v1/schedules', asAdmin(site));

  await page.goto(`${folio().admin}/p/${site.projectId}/pages/${encodeURIComponent(HOME)}`);
  await signIn(page, site.admin.email);
  const heroForm = page.getByRole('region', { name: HERO.instanceKey });
  await heroForm.getByLabel('title').fill('Harvest loaf');
  await heroForm.getByRole('button', { name: 'Save draft' }).click();
  await expect(heroForm.getByText('unsaved changes')).toHaveCount(0);

  // The hero's publish, tomorrow (Auckland) at 09:30.
  await heroForm.getByRole('button', { name: 'Schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule hero' });
  const when = dialog.getByLabel('Date and time');
  await expect(dialog.getByText(/Your time zone: Pacific\/Auckland \(UTC\+1[23]:00\)/)).toBeVisible();
  await when.fill(wallTime(new Date(Date.now() - 3_600_000)));
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog.getByText('Pick a time in the future')).toBeVisible();
  const tomorrow = wallTime(new Date(Date.now() + 86_400_000)).slice(0, 10);
  await when.fill(`${tomorrow}T09:30`);
  await expectAccessible(page);
  await screenshot(page, 'schedule-dialog');
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog).toBeHidden();
  const heroSchedule = (await schedules()).find((s) => s.entryId !== null)!;
  expect(heroSchedule).toMatchObject({ action: 'publish', status: 'pending' });
  expect(wallTime(new Date(heroSchedule.at))).toBe(`${tomorrow}T09:30`); // the editor's 09:30, stored in UTC

  // The footer's unpublish, the day after at 18:00.
  const footerForm = page.getByRole('region', { name: FOOTER.instanceKey });
  await footerForm.getByRole('button', { name: 'Schedule' }).click();
  const footerDialog = page.getByRole('dialog', { name: 'Schedule footer' });
  await footerDialog.getByRole('radio', { name: 'Unpublish' }).check();
  const later = wallTime(new Date(Date.now() + 2 * 86_400_000)).slice(0, 10);
  await footerDialog.getByLabel('Date and time').fill(`${later}T18:00`);
  await footerDialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(footerDialog).toBeHidden();

  const list = page.getByRole('table', { name: 'Schedules of this page' });
  await expect(list.getByRole('row', { name: /Publish hero/ })).toContainText('pending');
  await expect(list.getByRole('row', { name: /Unpublish footer/ })).toContainText('pending');
  await expect(list.getByRole('row', { name: /Publish hero/ })).toContainText('9:30');

  // Cancel the unpublish.
  await list
    .getByRole('row', { name: /Unpublish footer/ })
    .getByRole('button', { name: /^Cancel/ })
    .click();
  await expect(list.getByRole('row', { name: /Unpublish footer/ })).toContainText('canceled');
  await expect(list.getByRole('row', { name: /Unpublish footer/ }).getByRole('button')).toHaveCount(0);
  expect((await schedules()).find((s) => s.action === 'unpublish')?.status).toBe('canceled');

  // The whole page at the next minute (at least 10 s from now): it runs, and the editor shows it.
  const soon = new Date(Math.ceil((Date.now() + 10_000) / 60_000) * 60_000);
  await page.getByRole('button', { name: 'Schedule page' }).click();
  const pageDialog = page.getByRole('dialog', { name: `Schedule page ${HOME}` });
  await pageDialog.getByLabel('Date and time').fill(wallTime(soon));
  await pageDialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(pageDialog).toBeHidden();
  const pageRow = list.getByRole('row', { name: /every draft of \// });
  await expect(pageRow).toContainText('pending');
  await expectAccessible(page);
  await screenshot(page, 'schedules');

  expect((await visitorEntries(folio(), site, HOME)).map((e) => e.instanceKey)).toEqual(['footer']);
  await expect(pageRow).toContainText('done', { timeout: 90_000 });
  expect(Date.now()).toBeGreaterThanOrEqual(soon.getTime()); // never before its time
  await expect(heroForm.getByText('published', { exact: true })).toBeVisible();
  const live = await visitorEntries(folio(), site, HOME);
  expect(live.find((e) => e.instanceKey === 'hero')?.fields.title).toBe('Harvest loaf');
  // The hero's own schedule for tomorrow is still pending.
  await expect(list.getByRole('row', { name: /Publish hero/ })).toContainText('pending');
});
