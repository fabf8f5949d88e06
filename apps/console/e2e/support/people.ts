import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { Person, type PersonOptions } from './session';
import { signInAs, type Credentials } from '../pages/SignInPage';

/** The stack's administrator (tools/stack/config.ts defaults, as `pnpm start` prints them). */
export const STACK_ADMIN: Credentials = { email: 'admin@corridor.local', password: 'corridor-admin' };

export interface BrowserOptions {
  /** Chromium flags added for this block's browser (e.g. a host name mapped to the gateway). */
  args?: readonly string[];
}

/**
 * For a describe block: one browser for its tests, and `open(who, opts)` for each person a test
 * needs (a context of their own with its window size, language and address, signed in when
 * credentials are given). After each test every person's page is closed and the test fails on
 * anything their browser console reported (a test that expects a red line removes it from
 * `person.problems` itself).
 */
export function browserPeople(browserOpts: BrowserOptions = {}): { open(who?: Credentials, opts?: PersonOptions): Promise<Person> } {
  let browser: Browser;
  const people: Person[] = [];
  beforeAll(async () => {
    browser = await launchChromium(browserOpts.args);
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async ({ task }) => {
    // a failed test leaves a picture of each person's screen as it was (e2e/.screenshots/failed-*)
    if (task.result?.state === 'fail') {
      const slug = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
      await Promise.all(people.map((p, i) => p.screenshot(`failed-${slug}-${i}`, { settle: false }).catch(() => undefined)));
    }
    const problems = people.flatMap((p) => p.problems);
    await Promise.all(people.splice(0).map((p) => p.close()));
    expect(problems, 'the browser console stayed clean').toEqual([]);
  });
  return {
    async open(who, opts) {
      const p = await Person.open(browser, opts);
      people.push(p);
      if (who) await signInAs(p, who);
      return p;
    },
  };
}
