import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, type FakeWebhook, startFakeDiscord } from '../../server/test/fake-discord.ts';
import { loginAsAdmin, toastTitled, useBrowserSuite } from './harness.ts';

/*
 * The Notifications screen as an admin walks it, against a fake Discord on loopback: add a Discord
 * destination (its token never shown), send a test, finds in and out of its range, the webhook
 * deleted on Discord's side, an edit that keeps the URL, and the delete. The steps build on each other.
 */

const BOT_TOKEN = 'e2e-bot-token-notifications-0123456789ab';
const PLACE = '109983668079237';
const GHOST = 'ghost-notifications-1';
const NAME = '#finds-1m';
const RENAMED = '#finds-1m-and-up';

/** Reports finds as a bot over HTTP (a hello first, as a bot starts). */
async function reportFinds(page: Page, finds: { name: string; value: string }[]): Promise<void> {
  const post = (events: unknown[]) =>
    page.request.post('/api/bot/events', {
      headers: { authorization: `Bearer ${BOT_TOKEN}` },
      data: { ghostId: GHOST, events },
    });
  const hello = await post([{ type: 'hello', payload: { ghostId: GHOST, version: '1' } }]);
  expect(hello.status(), await hello.text()).toBe(200);
  const res = await post(
    finds.map((f, i) => ({
      type: 'pet_discovered',
      payload: { ...f, placeid: PLACE, jobid: `${GHOST}-job-${Date.now()}-${i}` },
    })),
  );
  expect(res.status(), await res.text()).toBe(200);
}

/** The destination's row in the list. */
const destinationRow = (page: Page, name: string) =>
  page.locator('tr[data-destination-id]').filter({ hasText: name });

/** A figure of the row's Deliveries cell ("Sent", "Pending", "Failed"). */
const deliveryCount = (page: Page, name: string, figure: string) =>
  destinationRow(page, name).locator(`dt:text-is("${figure}") + dd`);

/** What the admin reads after pressing the destinations' refresh button (the list polls only every 15 s). */
async function refreshedText(page: Page, locator: ReturnType<Page['locator']>): Promise<string> {
  await page.getByRole('button', { name: 'Refresh destinations' }).click();
  await page.getByRole('button', { name: 'Refresh deliveries' }).click();
  return (await locator.allTextContents()).join(' ');
}

/** The token must be nowhere in the page: not in its text, nor in any attribute (title, value). */
async function expectTokenHidden(page: Page, webhook: FakeWebhook): Promise<void> {
  expect(await page.content()).not.toContain(webhook.token);
}

describe('Notifications screen', () => {
  const suite = useBrowserSuite({
    BOT_TOKEN,
    NOTIFY_ALLOW_PRIVATE: 'true',
    NOTIFY_ALLOW_HOSTS: '127.0.0.1',
  });
  let fake: FakeDiscord;
  let webhook: FakeWebhook;
  let maskedUrl: string;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    webhook = fake.createWebhook();
    maskedUrl = `${fake.origin}/api/webhooks/${webhook.id}/••••••`;
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('adds a Discord destination through the dialog, its URL shown masked', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/notifications');
    await page.getByText('No destinations yet. Add one to post finds to Discord or a webhook.').waitFor();

    await page.getByRole('button', { name: 'Add Destination' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Destination' });
    await dialog.getByLabel('Name', { exact: true }).fill(NAME);
    await dialog.getByLabel('URL', { exact: true }).fill(webhook.url);
    await dialog.getByLabel('Minimum value').fill('1M');
    await dialog.getByLabel('Delay (seconds)').fill('0');
    await dialog.getByRole('button', { name: 'Add Destination' }).click();

    await toastTitled(page, 'Destination added').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = destinationRow(page, NAME);
    await row.getByText(maskedUrl, { exact: true }).waitFor();
    expect(await row.textContent()).toContain('1M/s and up');
    await expectTokenHidden(page, webhook);
  });

  it('sends a test: the toast says it worked and Discord got one post', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/notifications');
    await page.getByRole('button', { name: `Send test to ${NAME}` }).click();
    await toastTitled(page, 'Test sent').waitFor();
    expect(fake.received.filter((p) => p.webhookId === webhook.id)).toHaveLength(1);
  });

  it('posts the find in range, not the one below it, and shows it sent', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/notifications');
    const before = fake.received.length;
    // Both in one batch: they are stored (and their deliveries written) together, so once the one in
    // range has arrived the one below it would have been queued beside it, had it matched.
    await reportFinds(page, [
      { name: 'Lucky Cat', value: '$500K/s' },
      { name: 'Golden Dragon', value: '$5M/s' },
    ]);

    await expect.poll(() => fake.received.length - before, { timeout: 20_000 }).toBe(1);
    const post = fake.received[before]!;
    expect(post.body.embeds.map((e: { title: string }) => e.title)).toEqual(['Golden Dragon']);

    await expect
      .poll(() => refreshedText(page, deliveryCount(page, NAME, 'Sent')), { timeout: 20_000 })
      .toBe('1');
    // One delivery only (two would read "Sent Sent"), the find in range, in the state Sent.
    const deliveries = page.locator('tr[data-delivery-id]');
    await expect
      .poll(() => refreshedText(page, deliveries.locator('td[data-label="State"]')), { timeout: 20_000 })
      .toBe('Sent');
    expect(await deliveries.locator('td[data-label="Find"]').textContent()).toContain('Golden Dragon');
    expect(await page.getByText('Lucky Cat').count()).toBe(0);
    await expectTokenHidden(page, webhook);
  });

  it('shows why the destination stopped when Discord deleted the webhook', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/notifications');
    fake.deleteWebhook(webhook.id);
    await reportFinds(page, [{ name: 'Cosmic Owl', value: '$12M/s' }]);

    const reason = destinationRow(page, NAME).getByRole('status');
    await expect
      .poll(() => refreshedText(page, reason), { timeout: 20_000 })
      .toContain('Disabled: Unknown Webhook');
    await expect.poll(() => page.getByLabel(`${NAME} enabled`).isChecked()).toBe(false);
    await expectTokenHidden(page, webhook);
  });

  it('renames the destination and keeps its URL', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/notifications');
    await page.getByRole('button', { name: `Edit ${NAME}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${NAME}` });
    // The stored URL is offered masked, and the URL field starts empty (kept unless retyped).
    await dialog.getByText(`Stored: ${maskedUrl}. Leave empty to keep it.`).waitFor();
    expect(await dialog.getByLabel('URL (optional)').inputValue()).toBe('');
    await expectTokenHidden(page, webhook);
    await dialog.getByLabel('Name', { exact: true }).fill(RENAMED);
    await dialog.getByRole('button', { name: 'Save Destination' }).click();

    await toastTitled(page, 'Destination saved').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = destinationRow(page, RENAMED);
    await row.getByText(maskedUrl, { exact: true }).waitFor();
    expect(await page.locator('tr[data-destination-id]').count()).toBe(1);
    await expectTokenHidden(page, webhook);
  });

  it('deletes the destination after asking', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/notifications');
    await page.getByRole('button', { name: `Delete ${RENAMED}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this destination?' });
    await confirm.getByRole('button', { name: 'Delete Destination' }).click();

    await toastTitled(page, 'Destination deleted').waitFor();
    await page.getByText('No destinations yet.').waitFor();
    expect(await page.locator('tr[data-destination-id]').count()).toBe(0);
  });
});
