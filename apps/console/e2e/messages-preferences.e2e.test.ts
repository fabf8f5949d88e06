import { describe, expect, inject, it } from 'vitest';
import { ComplaintCategory } from '@corridor/contracts/complaints';
import { noticeWord } from '@corridor/contracts/notice-text';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import { accessibilityProblems } from './support/axe';
import { browserPeople } from './support/people';

const CONSOLE = { 'x-requested-with': 'corridor-console' };

/**
 * Issue 26 on the real stack: a refusal is one translated sentence (never `body.reason: Too small…`,
 * never twice), a server notice reads in the reader's language with the company's name, and a
 * user's preferences are kept by the API and shown by the console.
 */
describe.skipIf(!inject('chromium'))('messages for people and preferences', () => {
  const people = browserPeople();

  it('officer: rejecting with a short reason is refused before sending, in one translated sentence under the field', async () => {
    const officer = await people.open(DEMO_ACCOUNTS.officer, { at: '/approvals' });
    await officer.settled();
    const row = officer.page.getByRole('table', { name: 'Approval queue' }).getByRole('row').nth(1);
    await row.getByRole('button', { name: 'Reject' }).click();
    const dialog = officer.page.getByRole('dialog');
    const reason = dialog.getByLabel('Reason (the company sees it)');
    await reason.fill('bad');
    const sent: string[] = [];
    officer.page.on('request', (r) => void (r.url().includes('/reject') && sent.push(r.url())));
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => reason.getAttribute('aria-invalid')).toBe('true');
    // the contract's CertificateRejectInput refused it: one sentence, tied to the field, nothing sent
    const said = await reason.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' '),
    );
    expect(said).toContain('Enter at least 5 characters.');
    expect(await officer.page.getByText('Enter at least 5 characters.').count()).toBe(1);
    expect(await officer.page.locator('body').textContent()).not.toMatch(/body\.|Too small/);
    expect(sent).toEqual([]);
    expect(await accessibilityProblems(officer.page)).toEqual([]);
    await officer.screenshot('approvals-reject-short-reason');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it("company user: a sanction notice reads in Swahili with the company's name", async () => {
    const officer = await people.open(DEMO_ACCOUNTS.officer);
    const reason = `Late deliveries after warnings ${Date.now()}`;
    const recorded = await officer.context.request.post(`${officer.baseUrl}/api/disciplinary/admin`, {
      headers: CONSOLE,
      data: {
        subjectType: 'company',
        subjectRef: '101',
        companyId: 101,
        sanctionType: 'warning',
        reason,
        startsAt: new Date().toISOString(),
      },
    });
    expect(recorded.status()).toBe(201);
    const company = await people.open(DEMO_ACCOUNTS.company);
    // the reader's language on this browser only (the language switch would save it with the shared demo user)
    await company.page.evaluate(() => localStorage.setItem('corridor.lang', 'sw'));
    await company.visit('/inbox');
    const notice = company.page.getByTestId('notification').filter({ hasText: reason });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Adhabu imerekodiwa: Onyo');
    expect(await notice.textContent()).toContain(`Pwani Freight Movers Ltd: ${reason}`);
    expect(await notice.textContent()).not.toMatch(/company 101|Sanction recorded/);
    await company.screenshot('inbox-sanction-sw');
  });

  it('analyst: preferences are kept by the API and shown in English, Swahili and dark', async () => {
    const analyst = await people.open(DEMO_ACCOUNTS.analyst, { at: '/account', viewport: { width: 1366, height: 1200 } });
    await analyst.settled();
    const form = analyst.page.getByRole('form', { name: 'Preferences' });
    await form.getByLabel('Speed').selectOption('mph');
    await form.getByLabel('Coordinates').selectOption('dms');
    await form.getByLabel('Appearance').selectOption('dark');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Preferences saved.').waitFor();
    await expect.poll(() => analyst.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await analyst.screenshot('account-preferences-dark');
    const session = (await (await analyst.context.request.get(`${analyst.baseUrl}/api/session`, { headers: CONSOLE })).json()) as {
      attributes: Record<string, unknown>;
      coordinateFormat: string;
    };
    expect(session.attributes).toMatchObject({ speedUnit: 'mph', darkMode: true });
    expect(session.coordinateFormat).toBe('dms');
    // kept: a new page reads them back
    await analyst.visit('/account');
    expect(await analyst.page.getByRole('form', { name: 'Preferences' }).getByLabel('Speed').inputValue()).toBe('mph');
    // in Swahili (the language chosen in the form, saved with the user)
    const again = analyst.page.getByRole('form', { name: 'Preferences' });
    await again.getByLabel('Appearance').selectOption('light');
    await again.getByLabel('Language').selectOption('sw');
    await again.getByRole('button', { name: 'Save' }).click();
    await analyst.page.getByRole('form', { name: 'Mapendeleo' }).getByText('Mapendeleo yamehifadhiwa.').waitFor();
    await analyst.screenshot('account-preferences-sw');
    // back to the defaults, for the other tests of this stack
    const restore = analyst.page.getByRole('form', { name: 'Mapendeleo' });
    await restore.getByLabel('Kasi').selectOption('kmh');
    await restore.getByLabel('Viwianishi').selectOption('dd');
    await restore.getByLabel('Mwonekano').selectOption('system');
    await restore.getByLabel('Lugha').selectOption('');
    await restore.getByRole('button', { name: 'Hifadhi' }).click();
    await analyst.page
      .getByRole('form', { name: 'Preferences' })
      .or(analyst.page.getByRole('form', { name: 'Mapendeleo' }))
      .getByRole('status')
      .waitFor();
    await analyst.screenshot('account-preferences-restored');
  });

  it("company user files a complaint on a form checked by the contract, in English and Swahili; the officer's sanction form too; axe finds nothing serious", async () => {
    const company = await people.open(DEMO_ACCOUNTS.company, { at: '/complaints/new' });
    await company.settled();
    const form = company.page.getByRole('form', { name: 'File a complaint' });
    // every other company by name (GET /companies/names), not the user's own
    await form.getByRole('option', { name: 'Msasani Corridor Logistics Ltd' }).waitFor({ state: 'attached' });
    expect(await form.getByRole('option', { name: 'Pwani Freight Movers Ltd' }).count()).toBe(0);
    await form.getByRole('button', { name: 'File complaint' }).click();
    // refused before anything is sent: each field says it, tied to it for screen readers
    await expect.poll(() => form.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(3);
    expect(await form.getByText('Fill this in.').count()).toBeGreaterThanOrEqual(3);
    expect(await accessibilityProblems(company.page)).toEqual([]);
    await company.screenshot('complaint-form-refused');
    await company.page.evaluate(() => localStorage.setItem('corridor.lang', 'sw'));
    await company.visit('/complaints/new');
    const sw = company.page.getByRole('form', { name: 'Wasilisha lalamiko' });
    await sw.getByRole('option', { name: 'Msasani Corridor Logistics Ltd' }).waitFor({ state: 'attached' });
    await sw.getByLabel('Kampuni inayolalamikiwa').selectOption({ label: 'Msasani Corridor Logistics Ltd' });
    const title = `Lori lilichelewa ${Date.now()}`;
    await sw.getByLabel('Kichwa').fill(title);
    await sw.getByLabel('Kilichotokea').fill('Lori lilifika siku mbili baadaye bila taarifa.');
    await company.screenshot('complaint-form-sw');
    await sw.getByRole('button', { name: 'Wasilisha' }).click();
    await company.page.locator('.form-ok').waitFor();
    await company.page.evaluate(() => localStorage.removeItem('corridor.lang'));

    const officer = await people.open(DEMO_ACCOUNTS.officer, { at: '/disciplinary' });
    await officer.settled();
    await officer.page.getByText('Record a sanction').click();
    const sanction = officer.page.getByRole('form', { name: 'Record a sanction' });
    await sanction.getByLabel('Sanction').selectOption({ label: 'Fine' });
    await sanction.getByRole('button', { name: 'Record sanction' }).click();
    await expect.poll(() => sanction.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(2);
    expect(await accessibilityProblems(officer.page)).toEqual([]);
    await officer.screenshot('sanction-form-refused');

    // the complaint on the officer's list in Swahili: its category and state in the words its notices use (contracts notice-text)
    await officer.page.evaluate(() => localStorage.setItem('corridor.lang', 'sw'));
    await officer.visit('/complaints');
    const row = officer.page.getByRole('row').filter({ hasText: title });
    await row.waitFor();
    expect(await row.textContent()).toContain(noticeWord('complaintStatus', 'open', 'sw'));
    expect(await row.textContent()).toMatch(new RegExp(ComplaintCategory.options.map((c) => noticeWord('categories', c, 'sw')).join('|')));
    await officer.screenshot('complaints-sw');
    await officer.page.evaluate(() => localStorage.removeItem('corridor.lang'));
  });
});
