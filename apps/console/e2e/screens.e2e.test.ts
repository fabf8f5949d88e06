import { describe, expect, inject, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import type { Person } from './support/session';
import { accessibilityProblems } from './support/axe';
import { browserPeople, STACK_ADMIN as ADMIN } from './support/people';

/**
 * Every screen of every role, reached as a person reaches it: through that role's menu (the demo
 * accounts and the administrator), in English, and each screen once in Swahili. On each, the new screen's heading
 * takes the focus and names the page, the screen settles without an error state or a browser
 * error, fits the window without scrolling sideways, and axe-core finds no serious or critical
 * problem. The menu is read from the page, so a screen added to it is checked without changing
 * this test. Screens a menu does not list (the oversight's tabs) are reached through their tabs, which
 * keep the focus.
 * Pictures of each screen (apps/console/e2e/.screenshots, git-ignored) with CONSOLE_E2E_SCREENSHOTS=1:
 * taking them costs more than the checks.
 */
const PICTURES = process.env.CONSOLE_E2E_SCREENSHOTS === '1';
const EVERYONE = { ...DEMO_ACCOUNTS, admin: ADMIN };
/** Screens no menu lists: the tabs of a screen the menu opens, each its own address (chosen by clicking the tab). */
const TABBED: Partial<Record<keyof typeof EVERYONE, string>> = { officer: '/oversight/shipments' };

/**
 * The screen is no wider than the window (1,366 px unless the test sets another) and does not scroll
 * sideways; at that width no table hides columns in its own scroll box either (the approval queue's
 * actions were cut off when its list kept half the width for a card that was not open).
 */
async function fitsWidth(person: Person, what: string): Promise<string[]> {
  const o = await person.overflow();
  return [
    ...(o.documentWidth > o.windowWidth ? [`${what}: the page is ${o.documentWidth} px wide in a ${o.windowWidth} px window`] : []),
    ...(o.contentScrollsSideways ? [`${what}: the screen scrolls sideways`] : []),
    ...(o.tablesScrollingSideways ? [`${what}: ${o.tablesScrollingSideways} table(s) scroll sideways`] : []),
  ];
}

/** What is wrong with the screen now shown, one line each (none: []). */
async function screenProblems(person: Person, path: string, lang: string, focus: 'heading' | 'tab' = 'heading'): Promise<string[]> {
  const found: string[] = [];
  const heading = person.page.locator('main h1').first();
  // run in the page: whether the heading has the focus (or the chosen tab kept it)
  const focusedNow = (want: 'heading' | 'tab') =>
    want === 'heading'
      ? document.activeElement === document.querySelector('main h1')
      : document.activeElement?.getAttribute('role') === 'tab' && document.activeElement.getAttribute('aria-selected') === 'true';
  // the focus and the page's name follow once the screen's own code ran (useRouteFocus): wait for both, then say which is wrong
  await person.page
    .waitForFunction(
      (want) => {
        const h = document.querySelector('main h1');
        const a = document.activeElement;
        const focused = want === 'heading' ? a === h : a?.getAttribute('role') === 'tab' && a.getAttribute('aria-selected') === 'true';
        return !!h && focused && document.title === `${h.textContent!.trim()} · Corridor`;
      },
      focus,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  const [focused, title, text] = await Promise.all([person.page.evaluate(focusedNow, focus), person.page.title(), heading.textContent()]);
  if (!focused) found.push(`${path}: the ${focus === 'heading' ? 'heading' : 'chosen tab'} does not have the focus`);
  if (title !== `${text!.trim()} · Corridor`) found.push(`${path}: the page is named "${title}", its heading "${text!.trim()}"`);
  if (await person.page.locator('.state-error').count()) found.push(`${path}: an error state`);
  found.push(...(await fitsWidth(person, path)));
  for (const p of await accessibilityProblems(person.page)) found.push(`${path}: ${p}`);
  if (PICTURES) await person.screenshot(`screens-${lang}${path.replaceAll('/', '-')}`);
  return found;
}

describe.skipIf(!inject('chromium'))('every screen of each role', () => {
  const people = browserPeople();
  const seenInSwahili = new Set<string>();

  for (const [role, who] of Object.entries(EVERYONE) as [keyof typeof EVERYONE, (typeof EVERYONE)[keyof typeof EVERYONE]][]) {
    for (const lang of ['en', 'sw'] as const) {
      it(`${role} (${lang}): every screen of the menu takes the focus, names the page, settles, fits, and axe finds nothing serious`, async () => {
        // the language on this browser only: the shared demo user keeps theirs; straight to the account
        // screen (the start screen, the map for a dispatcher or an administrator, is reached through the menu below)
        const person = await people.open(who, { ...(lang === 'sw' ? { lang } : {}), at: '/account' });
        await person.settled();
        // the links shown (the menu's account link shows on narrow windows only: the top bar's name opens it here)
        const menu = await person.page
          .locator('nav#nav a[href^="/"], header a[href="/account"]')
          .evaluateAll((as) => [...new Set(as.filter((a) => a.checkVisibility()).map((a) => a.getAttribute('href')!))]);
        expect(menu.length, 'the menu offers screens').toBeGreaterThan(1);
        // the account screen last: it is the one open now
        menu.push(...menu.splice(menu.indexOf('/account'), 1));
        const found: string[] = [];
        // in Swahili a screen another role went through already is not gone through again: the words are the
        // screen's, and English checks every role's every screen (the suite's time is an issue of its own)
        for (const path of lang === 'sw' ? menu.filter((p) => !seenInSwahili.has(p)) : menu) {
          if (lang === 'sw') seenInSwahili.add(path);
          // through the menu (or the top bar), as a person goes
          await person.page.locator(`nav#nav a[href="${path}"]:visible, header a[href="${path}"]`).first().click();
          await person.page.waitForURL((u) => u.pathname === path);
          await person.settled();
          found.push(...(await screenProblems(person, `${role}/${lang} ${path}`, `${role}-${lang}`)));
        }
        const tabbed = TABBED[role];
        if (tabbed) {
          await person.page.locator(`nav#nav a[href="${tabbed}"]`).first().click();
          await person.settled();
          const tabs = person.page.locator('main [role="tab"]');
          for (let i = 1; i < (await tabs.count()); i++) {
            const before = new URL(person.page.url()).pathname;
            await tabs.nth(i).click();
            await person.page.waitForURL((u) => u.pathname !== before);
            await person.settled();
            const path = new URL(person.page.url()).pathname;
            found.push(...(await screenProblems(person, `${role}/${lang} ${path}`, `${role}-${lang}`, 'tab')));
          }
        }
        expect(found, `what is wrong on the screens of ${role} in ${lang}`).toEqual([]);
      }, 240_000);
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
    expect(await fitsWidth(person, 'tablet /shipments')).toEqual([]);
    await person.screenshot('tablet-shipments');
  });
});
