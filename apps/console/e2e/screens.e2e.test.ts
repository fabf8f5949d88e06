import { describe, expect, inject, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import type { Person } from './support/session';
import { accessibilityProblems } from './support/axe';
import { browserPeople, STACK_ADMIN as ADMIN } from './support/people';

/**
 * Every main screen of the association and the administration opens for its role, settles
 * without an error state or a browser error, and is photographed for a person to look at
 * (apps/console/e2e/.screenshots, git-ignored). The dispatcher's and the company's screens are
 * photographed by the tests of their work.
 */
const TOURS = {
  officer: {
    who: DEMO_ACCOUNTS.officer,
    screens: [
      '/approvals',
      '/oversight',
      '/oversight/cargo',
      '/oversight/documents',
      '/oversight/certificates',
      '/complaints',
      '/disciplinary',
      '/ratings',
      '/dashboards',
    ],
  },
  admin: {
    who: ADMIN,
    screens: ['/admin/users', '/admin/companies', '/admin/devices', '/admin/inventories', '/admin/routes', '/admin/geofences'],
  },
};

/**
 * The screen is no wider than the window (1,366 px unless the test sets another) and does not scroll
 * sideways; at that width no table hides columns in its own scroll box either (the approval queue's
 * actions were cut off when its list kept half the width for a card that was not open).
 */
async function expectFitsWidth(person: Person, what: string): Promise<void> {
  const o = await person.overflow();
  expect(o.documentWidth, `${what}: the page is no wider than the window`).toBeLessThanOrEqual(o.windowWidth);
  expect(o.contentScrollsSideways, `${what}: the screen does not scroll sideways`).toBe(false);
  expect(o.tablesScrollingSideways, `${what}: no table scrolls sideways`).toBe(0);
}

describe.skipIf(!inject('chromium'))('the main screens of each role', () => {
  const people = browserPeople();

  for (const [role, tour] of Object.entries(TOURS)) {
    it(`${role}: every screen settles with its data, and no error state`, async () => {
      const person = await people.open(tour.who);
      for (const path of tour.screens) {
        await person.visit(path);
        expect(await person.page.locator('.state-error').count(), `${path} shows no error state`).toBe(0);
        await expectFitsWidth(person, path);
        await person.screenshot(`${role}${path.replaceAll('/', '-')}`);
      }
    });
  }

  /**
   * axe-core on every screen each role's menu offers (and the account screen), in English and in
   * Swahili: no serious or critical problem. The menu is read from the page, so a screen added to
   * it is checked without changing this test.
   */
  const EVERYONE = { ...DEMO_ACCOUNTS, admin: ADMIN };
  for (const [role, who] of Object.entries(EVERYONE)) {
    for (const lang of ['en', 'sw'] as const) {
      it(`${role} (${lang}): axe finds nothing serious on any screen of the menu`, async () => {
        const person = await people.open(who);
        // the language on this browser only: the shared demo user keeps theirs
        if (lang === 'sw') await person.page.evaluate(() => localStorage.setItem('corridor.lang', 'sw'));
        await person.visit('/account');
        const menu = await person.page
          .locator('nav#nav a[href^="/"]')
          .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute('href')!))]);
        expect(menu.length, 'the menu offers screens').toBeGreaterThan(1);
        const found: string[] = [];
        for (const path of menu) {
          // through the menu, as a person goes: the new screen's heading takes the focus and names the page
          await person.page.locator(`nav#nav a[href="${path}"]`).first().click();
          await person.page.waitForURL((u) => u.pathname === path);
          await person.settled();
          const heading = person.page.locator('main h1').first();
          await expect
            .poll(() => heading.evaluate((h) => h === document.activeElement), { message: `${path}: the heading has the focus` })
            .toBe(true);
          await expect
            .poll(() => person.page.title(), { message: `${path}: the page is named by its heading` })
            .toBe(`${(await heading.textContent())!.trim()} · Corridor`);
          for (const p of await accessibilityProblems(person.page)) found.push(`${path}: ${p}`);
          await person.screenshot(`axe-${role}-${lang}${path.replaceAll('/', '-')}`);
        }
        expect(found, `serious or critical accessibility problems of ${role}`).toEqual([]);
      });
    }
  }

  it('officer: each document names what it belongs to as people know it, not by a bare id', async () => {
    const person = await people.open(DEMO_ACCOUNTS.officer);
    await person.visit('/oversight/documents');
    const table = person.page.getByRole('table', { name: 'Documents' });
    await table.getByRole('row').nth(1).waitFor();
    // every owner looked up (none still loading)
    await table.getByText('loading…').first().waitFor({ state: 'detached' });
    const owners = await table.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(owners.length).toBeGreaterThan(0);
    for (const owner of owners)
      expect(owner, 'an owner named, not numbered').not.toMatch(/^(Shipment|Cargo|Certificate|Complaint|Company)\s*#?\d+$/);
    // an owner links to its record, named by its number
    const owner = table.locator('tbody tr td:nth-child(4) a').first();
    expect(await owner.textContent()).toMatch(/^(Shipment|Cargo|Certificate|Complaint)\b.*[A-Z]{2,}/);
    // a certificate's documents open that certificate, waiting for a decision or not
    const certificate = table.getByRole('link', { name: /^Certificate / }).first();
    const number = (await certificate.textContent())!.replace(/^Certificate /, '');
    await certificate.click();
    await person.page.waitForURL(/\/approvals\?open=\d+$/);
    await person.page.getByTestId('certificate-card').getByText(number).first().waitFor();
  });

  it('a tablet-width screen keeps its navigation reachable', async () => {
    const person = await people.open(DEMO_ACCOUNTS.company, { viewport: { width: 800, height: 1100 } });
    await person.visit('/shipments');
    await person.page.getByRole('row').nth(1).waitFor();
    await expectFitsWidth(person, 'tablet /shipments');
    await person.screenshot('tablet-shipments');
  });
});
