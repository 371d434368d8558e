import type { Schemas } from '@folio/client';
import { expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';
import { api, asAdmin, folioForThisFile, newMember, newSite, type Site, uploadMedia } from './support/folio';
import { png } from './support/images';
import { type Received, signedWith, startReceiver } from './support/receiver';

/**
 * Workflow 10: webhooks against a real receiver on 127.0.0.1 (CMS_ALLOW_PRIVATE_HOOK_TARGETS): create
 * (secret once), Send test, deliveries, Redeliver, Recover failed, rotate secret, edit, deactivate, delete.
 * A failed event delivery waits ten minutes before its retry, so its next attempt shows.
 */
const folio = folioForThisFile({
  CMS_ALLOW_PRIVATE_HOOK_TARGETS: 'true',
  CMS_WEBHOOK_RETRY_SCHEDULE: '600000',
});

type DeliveryData = Schemas['Delivery'];

const deliveriesOf = (site: Site, webhookId: string) =>
  api<DeliveryData[]>(folio(), 'GET', `/v1/webhooks/${webhookId}/deliveries`, asAdmin(site));
const pings = (received: Received[]) => received.filter((r) => JSON.parse(r.body).type === 'ping');

test('create a webhook (secret once), Send test, deliveries, Redeliver, Recover failed, rotate, edit, deactivate, delete', async ({
  page,
}) => {
  const receiver = await startReceiver();
  try {
    const site = await newSite(folio());
    await page.goto(`${folio().admin}/p/${site.projectId}/webhooks`);
    await signIn(page, site.admin.email);
    await expect(page.getByText('No webhooks yet.')).toBeVisible();

    // Create: URL, events from the catalog, description; the secret is shown once.
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a webhook' });
    await dialog.getByRole('textbox', { name: /^URL/ }).fill('ftp://nope');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await expect(dialog.getByText('Enter an http:// or https:// address')).toBeVisible();
    await expect(dialog.getByText('Choose at least one event')).toBeVisible();
    await dialog.getByRole('textbox', { name: /^URL/ }).fill(`${receiver.url}/hooks/folio`);
    await dialog.getByRole('checkbox', { name: 'media.uploaded' }).check();
    await dialog.getByRole('checkbox', { name: 'ping' }).check();
    await dialog.getByRole('textbox', { name: /^Description/ }).fill('Search index');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const created = page.getByRole('dialog', { name: 'Webhook created' });
    const secret = await created.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await created.getByRole('button', { name: 'Done' }).click();
    const list = page.getByRole('table', { name: 'Webhooks' });
    await expect(list.getByRole('row', { name: /hooks\/folio/ })).toContainText('media.uploaded, ping');
    await expect(list.getByRole('row', { name: /hooks\/folio/ })).toContainText('active');
    await expectAccessible(page);
    await screenshot(page, 'webhooks');

    await list.getByRole('link', { name: `${receiver.url}/hooks/folio` }).click();
    await expect(page.getByRole('heading', { name: `${receiver.url}/hooks/folio`, level: 1 })).toBeVisible();
    const webhookId = /webhooks\/(whk_[^/]+)$/.exec(page.url())![1]!;
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    const rowOf = (id: string) => deliveries.getByRole('row', { name: new RegExp(id) });

    // Send test: the outcome at once, a signed ping at the receiver, a row in the deliveries.
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Test delivered' })).toContainText(
      /The receiver answered HTTP 200 in \d+ ms/,
    );
    expect(pings(receiver.received)).toHaveLength(1);
    expect(signedWith(pings(receiver.received)[0]!, secret)).toBe(true);
    const [firstPing] = await deliveriesOf(site, webhookId);
    await expect(rowOf(firstPing!.id).getByRole('cell')).toHaveText([
      new RegExp(`ping\\s*${firstPing!.id}`),
      'succeeded',
      '200',
      '1',
      /\d+ ms/,
      /\d/,
      '—',
      'Redeliver',
    ]);

    // The receiver goes down: the test says so; an event's delivery waits for its retry.
    receiver.status = 500;
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Test failed' })).toContainText('HTTP 500');
    const failedPing = (await deliveriesOf(site, webhookId))[0]!;
    expect(failedPing.status).toBe('failed');
    await expect(rowOf(failedPing.id)).toContainText('failed');
    await uploadMedia(folio(), site, 'bread.png', png(10, 10, [200, 150, 90]));
    await expect
      .poll(
        async () =>
          (await deliveriesOf(site, webhookId)).find((d) => d.eventType === 'media.uploaded')?.attemptCount,
      )
      .toBe(1);
    const event = (await deliveriesOf(site, webhookId)).find((d) => d.eventType === 'media.uploaded')!;
    await page.reload();
    await expect(rowOf(event.id)).toContainText('pending');
    await expect(rowOf(event.id)).toContainText('500');
    await expect(rowOf(event.id).getByRole('cell').nth(6)).toHaveText(/\d{1,2}:\d{2}/); // its next attempt
    await expectAccessible(page);
    await screenshot(page, 'webhook-deliveries');

    // Back up: Redeliver the failed ping, then the waiting event now.
    receiver.status = 200;
    await rowOf(failedPing.id).getByRole('button', { name: 'Redeliver' }).click();
    await expect(rowOf(failedPing.id)).toContainText('succeeded');
    await expect(rowOf(failedPing.id).getByRole('cell').nth(3)).toHaveText('2');
    await rowOf(event.id).getByRole('button', { name: 'Redeliver' }).click();
    await expect(rowOf(event.id)).toContainText('succeeded');

    // Recover failed: every failed delivery since a time, at once.
    receiver.status = 503;
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Test failed' })).toContainText('HTTP 503');
    const third = (await deliveriesOf(site, webhookId))[0]!;
    receiver.status = 200;
    await page
      .getByRole('combobox', { name: 'Failed deliveries from' })
      .selectOption({ label: 'the last hour' });
    await page.getByRole('button', { name: 'Recover failed' }).click();
    await expect(page.getByText('1 failed delivery queued again.')).toBeVisible();
    await expect(rowOf(third.id)).toContainText('succeeded');

    // Rotate secret: confirmed, shown once; the next ping is signed with it only.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate the signing secret?' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const rotated = await page.getByLabel('New signing secret').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Test delivered' })).toBeVisible();
    const last = pings(receiver.received).at(-1)!;
    expect(signedWith(last, rotated)).toBe(true);
    expect(signedWith(last, secret)).toBe(false);

    // Edit: events and description.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the webhook' });
    await expect(edit.getByRole('checkbox', { name: 'media.uploaded' })).toBeChecked();
    await edit.getByRole('checkbox', { name: 'content.published' }).check();
    await edit.getByRole('textbox', { name: /^Description/ }).fill('Search index and cache');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText('Search index and cache')).toBeVisible();
    await expect(page.getByText('content.published, media.uploaded, ping')).toBeVisible();

    // Deactivate: nothing can be recovered while inactive (the API's 409); activate again.
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('inactive', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Recover failed' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Nothing recovered' })).toContainText(/inactive/);
    await page.getByRole('button', { name: 'Activate' }).click();
    await expect(page.getByText('active', { exact: true })).toBeVisible();
    const [hook] = (
      await api<{ webhooks: { active: boolean }[] }>(folio(), 'GET', '/v1/webhooks', asAdmin(site))
    ).webhooks;
    expect(hook!.active).toBe(true);

    // Delete, asked first.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this webhook?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await expect(page.getByText('No webhooks yet.')).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test('an editor is told webhooks are for admins', async ({ page }) => {
  const site = await newSite(folio());
  const editor = await newMember(folio(), site, 'editor');
  await page.goto(`${folio().admin}/p/${site.projectId}/webhooks`);
  await signIn(page, editor.email);
  await expect(page.getByText('Admins only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create webhook' })).toHaveCount(0);
});
