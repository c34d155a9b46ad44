/**
 * Webhook notifications in Chromium: a client adds its endpoint, keeps the secret it
 * is shown once, sends a test event, and sees a call placed through the Bland stand-in arrive at
 * its endpoint signed, in the delivery log, and again after "Send again". The endpoint is a
 * receiver on this machine (the e2e server allows private addresses; production refuses them).
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { loginAsNewClient, SettingsPage } from './pages/settings-page';
import { placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let receiverUrl: string;
const hits: Hit[] = [];

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/crm/calls`;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const signedWith = (secret: string, hit: Hit) => {
  const parts = Object.fromEntries(
    String(hit.headers['x-signature'])
      .split(',')
      .map((p) => p.split('=')),
  );
  return parts.v1 === createHmac('sha256', secret).update(`${parts.t}.${hit.body}`).digest('hex');
};

test('a client connects its endpoint, tests it, and receives each finished call signed', async ({
  page,
  request,
}) => {
  const client = await loginAsNewClient(page, request, 'hooks');
  const settings = new SettingsPage(page);
  await settings.open('?tab=notifications');

  const card = page.getByRole('region', { name: 'Webhook endpoint' });
  await card.getByLabel('Endpoint URL').fill('not an address');
  await card.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(card.getByRole('alert')).toHaveText('Enter a full http:// or https:// address');

  await card.getByLabel('Endpoint URL').fill(receiverUrl);
  await card.getByRole('button', { name: 'Add endpoint' }).click();
  await expectToast(page, 'Webhook Saved', 'Finished calls are sent to this address.');
  const secret = await card.getByRole('textbox', { name: 'Signing secret' }).inputValue();
  expect(secret).toMatch(/^whsec_/);
  await expect(card.getByText(`Signing secret ending in ${secret.slice(-4)}`)).toBeVisible();

  await card.getByRole('button', { name: 'Send test event' }).click();
  await expectToast(page, 'Test Event Delivered', 'Your endpoint answered 200.');
  expect(hits).toHaveLength(1);
  expect(JSON.parse(hits[0].body).type).toBe('test');
  expect(signedWith(secret, hits[0])).toBe(true);

  await placeTestCall(request, client.webhookUrl);
  await expect.poll(() => hits.length, { timeout: 10_000 }).toBe(2);
  const event = JSON.parse(hits[1].body);
  expect(event).toMatchObject({
    type: 'call.completed',
    apiVersion: '2026-11-01',
    call: { status: 'completed' },
  });
  expect(signedWith(secret, hits[1])).toBe(true);

  await page.reload();
  const delivery = card.getByTestId('webhook-delivery').filter({ hasText: 'call.completed' });
  await expect(delivery).toContainText('Delivered');
  await expect(delivery).toContainText('HTTP 200');
  await expectNoSeriousA11yViolations(page, 'notifications tab with a webhook endpoint');
  await screenshotBothWidths(page, 'settings-webhook-endpoint');

  await delivery.getByRole('button', { name: /^Send again/ }).click();
  await expectToast(page, 'Sending Again', 'The event is on its way (same event id).');
  await expect.poll(() => hits.length, { timeout: 10_000 }).toBe(3);
  expect(JSON.parse(hits[2].body).id).toBe(event.id);
});
