import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import { launchChromium } from './support/chromium';
import { Person } from './support/session';
import { SignInPage, signInAs } from './pages/SignInPage';
import { LiveMapPage } from './pages/LiveMapPage';

describe.skipIf(!inject('chromium'))('a dispatcher at the console', () => {
  let browser: Browser;
  let person: Person;
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

  it('is refused with a wrong password, then signs in and out', async () => {
    person = await Person.open(browser);
    const signIn = await new SignInPage(person).open();
    await person.screenshot('sign-in');
    await signIn.failsWith({ email: DEMO_ACCOUNTS.dispatcher.email, password: 'not-the-password' }, 'The email or password is not right.');
    person.problems.length = 0; // the 401 of the wrong password is the answer this step expects
    await signIn.signIn(DEMO_ACCOUNTS.dispatcher);
    await signIn.signOut();
    await person.goto('/map');
    await person.page.getByLabel('Email or login').waitFor(); // signed out: the map sends them back to sign-in
  });

  it('watches trucks move on the live map', async () => {
    person = await Person.open(browser);
    await signInAs(person, DEMO_ACCOUNTS.dispatcher);
    const map = await new LiveMapPage(person).open();
    await expect.poll(() => map.trucksOnMap(), { timeout: 30_000 }).toBeGreaterThan(0);
    await map.selectTruck('Truck 01');
    const first = await map.selectedTruckPosition();
    await expect.poll(() => map.selectedTruckPosition(), { timeout: 30_000 }).not.toBe(first);
    await person.screenshot('live-map');
  });
});
