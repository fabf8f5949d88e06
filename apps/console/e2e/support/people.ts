import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { Person } from './session';
import { signInAs, type Credentials } from '../pages/SignInPage';

/** The stack's administrator (tools/stack/config.ts defaults, as `pnpm start` prints them). */
export const STACK_ADMIN: Credentials = { email: 'admin@corridor.local', password: 'corridor-admin' };

/**
 * For a describe block: one browser for its tests, and `open(who)` for each person a test needs
 * (a context of their own, signed in when credentials are given). After each test every person's
 * page is closed and the test fails on anything their browser console reported.
 */
export function browserPeople(): { open(who?: Credentials): Promise<Person> } {
  let browser: Browser;
  const people: Person[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    const problems = people.flatMap((p) => p.problems);
    await Promise.all(people.splice(0).map((p) => p.close()));
    expect(problems, 'the browser console stayed clean').toEqual([]);
  });
  return {
    async open(who) {
      const p = await Person.open(browser);
      people.push(p);
      if (who) await signInAs(p, who);
      return p;
    },
  };
}
