import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import { launchChromium } from './support/chromium';
import { Person } from './support/session';
import { signInAs } from './pages/SignInPage';

/** The stack's administrator (tools/stack/config.ts defaults, as `pnpm start` prints them). */
const ADMIN = { email: 'admin@corridor.local', password: 'corridor-admin' };

describe.skipIf(!inject('chromium'))('an administrator on the users screen', () => {
  let browser: Browser;
  let person: Person | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    const problems = person?.problems ?? [];
    await person?.close();
    expect(problems, 'the browser console stayed clean').toEqual([]);
  });

  it("lifts a user's sign-in lock and is told the user can sign in again", async () => {
    person = await Person.open(browser);
    await signInAs(person, ADMIN);
    await person.visit('/admin/users');
    const { page } = person;
    await page.getByRole('searchbox').fill(DEMO_ACCOUNTS.dispatcher.email);
    const row = page.getByRole('row').filter({ hasText: DEMO_ACCOUNTS.dispatcher.email });
    await row.getByRole('button', { name: 'Lift sign-in lock' }).click();
    await page.getByRole('status').filter({ hasText: 'can sign in again' }).waitFor();
    await person.screenshot('admin-users-unlocked');
  });
});
