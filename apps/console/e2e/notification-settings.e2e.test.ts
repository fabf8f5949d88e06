import { describe, expect, inject, it } from 'vitest';
import type { Person } from './support/session';
import { browserPeople, STACK_ADMIN as ADMIN } from './support/people';

const CONSOLE = { 'x-requested-with': 'corridor-console' };
const switchOf = (p: Person, type: string, channel: 'Inbox' | 'Email' | 'Webhook') =>
  p.page.getByRole('checkbox', { name: `${type}: ${channel}`, exact: true });

/** The screen fits its window: the page does not scroll sideways, nor does the switches' table inside its box. */
async function expectFits(p: Person, what: string): Promise<void> {
  const o = await p.overflow();
  expect(o.documentWidth, `${what}: the page is no wider than the window`).toBeLessThanOrEqual(o.windowWidth);
  expect(o.contentScrollsSideways, `${what}: the screen does not scroll sideways`).toBe(false);
  expect(o.tablesScrollingSideways, `${what}: the switches' table does not scroll sideways`).toBe(0);
}

/**
 * A user sets how notices reach them (/settings/notification) at the console: from their account,
 * switches per notice type, saved and still set after a reload. The stack runs without a mail
 * channel (no SMTP_URL): the email switches are shown disabled with the reason, and the server
 * refuses them too.
 */
describe.skipIf(!inject('chromium'))('notification settings at the console', () => {
  const people = browserPeople();

  it('a user turns a webhook on and an inbox type off, saves, and finds them set after a reload; email is unavailable without a mail channel', async () => {
    // a user of their own: the demo accounts' inboxes stay as the other tests expect them
    const admin = await people.open(ADMIN);
    const who = { email: `notices-${Date.now()}@corridor.test`, password: 'notices-by-webhook' };
    const created = await admin.context.request.post(`${admin.baseUrl}/api/users`, {
      headers: CONSOLE,
      data: { name: 'Neema Notices', email: who.email, password: who.password, roles: ['dispatcher'] },
    });
    expect(created.status(), await created.text()).toBe(200);

    const user = await people.open(who, { viewport: { width: 1366, height: 1150 } }); // tall enough to show the whole form
    const { page } = user;
    // from the account (the user's name in the top bar) to the settings
    await page.getByRole('banner').getByRole('link', { name: 'Neema Notices', exact: true }).click();
    await user.settled();
    await user.screenshot('notification-settings-account');
    await page.getByRole('link', { name: 'Notification settings' }).click();
    await user.settled();
    await page.getByRole('heading', { name: 'Notification settings', level: 1 }).waitFor();

    // no mail channel: every email switch is disabled and says why
    const reason = 'Email is not available: this server has no mail channel (SMTP_URL is not set).';
    await page.getByText(reason).waitFor();
    const email = switchOf(user, 'Certificate approved', 'Email');
    expect(await email.isDisabled()).toBe(true);
    expect(await email.getAttribute('title')).toContain(reason);
    expect(await page.getByRole('checkbox', { name: /: Email$/ }).count()).toBe(7);
    for (const box of await page.getByRole('checkbox', { name: /: Email$/ }).all()) expect(await box.isDisabled()).toBe(true);
    // rule-driven types have only their inbox switch
    await switchOf(user, 'Announcement', 'Inbox').waitFor();
    expect(await switchOf(user, 'Announcement', 'Webhook').count()).toBe(0);
    await expectFits(user, 'desktop');
    await user.screenshot('notification-settings-desktop');

    // the webhook needs its URL: turned on, the address is asked for
    await switchOf(user, 'Certificate approved', 'Webhook').check();
    await switchOf(user, 'Complaint filed', 'Inbox').uncheck();
    // without it, the form says so under the field before anything is sent (checked by the contract's form and its rule)
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Give a webhook URL: a webhook switch is on.').waitFor();
    expect(await page.getByLabel('Webhook URL').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Webhook URL').fill('https://hooks.example.com/corridor/neema');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await user.screenshot('notification-settings-saved');

    await page.reload();
    await user.settled();
    await page.getByRole('heading', { name: 'Notification settings', level: 1 }).waitFor();
    await switchOf(user, 'Certificate approved', 'Webhook').waitFor();
    expect(await switchOf(user, 'Certificate approved', 'Webhook').isChecked()).toBe(true);
    expect(await switchOf(user, 'Complaint filed', 'Inbox').isChecked()).toBe(false);
    expect(await switchOf(user, 'Certificate approved', 'Inbox').isChecked()).toBe(true);
    expect(await switchOf(user, 'Certificate rejected', 'Webhook').isChecked()).toBe(false);
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe('https://hooks.example.com/corridor/neema');

    // the server refuses the email switch as well, naming mail: the disabled switch is not only the console's
    const refused = await user.context.request.put(`${user.baseUrl}/api/settings/notification`, {
      headers: { ...CONSOLE, origin: user.baseUrl },
      data: { channels: { certificateApproved: { web: true, email: true, webhook: true } } },
    });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /email: mail is not available: the server has no mail channel/,
    );
  });

  it('on a phone-width window the settings open from the menu and fit the window', async () => {
    const admin = await people.open(ADMIN);
    const who = { email: `notices-narrow-${Date.now()}@corridor.test`, password: 'notices-on-a-phone' };
    const created = await admin.context.request.post(`${admin.baseUrl}/api/users`, {
      headers: CONSOLE,
      data: { name: 'Baraka Simu', email: who.email, password: who.password, roles: ['dispatcher'] },
    });
    expect(created.status(), await created.text()).toBe(200);
    const user = await people.open(who, { at: '/devices', viewport: { width: 390, height: 844 } });
    await user.settled();
    // the name is not in the top bar at this width: the account opens from the menu
    await user.page.getByRole('button', { name: 'Menu' }).click();
    await user.page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Your account' }).click();
    await user.settled();
    await user.page.getByRole('link', { name: 'Notification settings' }).click();
    await user.settled();
    await switchOf(user, 'Sanction recorded', 'Webhook').waitFor();
    await user.screenshot('notification-settings-phone');
    await expectFits(user, 'phone');
    // the last switch and the save button are inside the window's width, not cut off
    for (const el of [switchOf(user, 'Sanction recorded', 'Webhook'), user.page.getByRole('button', { name: 'Save settings' })]) {
      const box = (await el.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await user.page.getByRole('button', { name: 'Save settings' }).scrollIntoViewIfNeeded();
    await user.screenshot('notification-settings-phone-bottom');
  });

  it('a verification link opened where no one is signed in: an unknown or used one says how to get a new link, in English and Swahili (issue 23)', async () => {
    for (const [locale, refused, shot] of [
      [
        'en-GB',
        'This link is unknown, has expired or was already used. Save the address again in your notification settings to get a new link.',
        'verify-email-refused-en',
      ],
      [
        'sw-TZ',
        'Kiungo hiki hakijulikani, kimeisha muda au kimeshatumika. Hifadhi anwani tena kwenye mipangilio ya taarifa upate kiungo kipya.',
        'verify-email-refused-sw',
      ],
    ] as const) {
      const visitor = await people.open(undefined, { locale, viewport: { width: 420, height: 760 } }); // a phone's mail app
      const answered = visitor.page.waitForResponse((r) => r.url().endsWith('/api/settings/notification/email/verify'));
      await visitor.goto('/verify-email?token=aW52ZW50ZWQtdG9rZW4tdGhhdC13YXMtbmV2ZXItbWFpbGVk');
      expect((await answered).status()).toBe(400);
      await visitor.page.getByRole('alert').filter({ hasText: refused }).waitFor();
      await visitor.screenshot(shot);
      // the browser logs the refused request itself; nothing else may go wrong
      expect(visitor.problems.every((m) => m.includes('status of 400'))).toBe(true);
      visitor.problems.splice(0);
    }
  });
});
