import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { Person, type PersonOptions } from './session';
import type { Credentials } from '../pages/SignInPage';

/** The stack's administrator (tools/stack/config.ts defaults, as `pnpm start` prints them). */
export const STACK_ADMIN: Credentials = { email: 'admin@corridor.local', password: 'corridor-admin' };

/**
 * Where a person opened with credentials lands (`open`): a path of the console, opened once signed
 * in and waited for until the console shows its menu (as after the sign-in screen); '/' is the
 * person's start screen. null: no page is opened (a person who only calls the API).
 */
export interface Landing {
  at?: string | null;
}

export interface BrowserOptions {
  /** Chromium flags added for this block's browser (e.g. a host name mapped to the gateway), read when it starts (after the file has its lane). */
  args?: () => readonly string[];
}

/**
 * For a describe block: one browser for its tests, and `open(who, opts)` for each person a test
 * needs (a context of their own with its window size, language and address, signed in when
 * credentials are given: through the API, POST /api/session, as the sign-in screen does, and on
 * `opts.at`, the start screen unless set). The sign-in screen itself is tested by the files about
 * it (dispatcher: a wrong password, sign-in and sign-out; admin-account: the second factor; openid);
 * going through it for every person cost a page load of the console and its start screen (the map,
 * for a dispatcher or an administrator) before each test's own screen (issue 29, browserfiles). After each test every person's page is closed and the test fails on
 * anything their browser console reported (a test that expects a red line removes it from
 * `person.problems` itself).
 *
 * `openForFile(who, opts)`: a person whose page stays open from the test that opens it to the end
 * of the block, for a later test to see what that page hears meanwhile (the live feed while the
 * other tests run). What their console reports is checked after each test all the same.
 */
export function browserPeople(browserOpts: BrowserOptions = {}): {
  open(who?: Credentials, opts?: PersonOptions & Landing): Promise<Person>;
  openForFile(who?: Credentials, opts?: PersonOptions & Landing): Promise<Person>;
} {
  let browser: Browser;
  const people: Person[] = [];
  const kept: Person[] = [];
  beforeAll(async () => {
    browser = await launchChromium(browserOpts.args?.());
  });
  afterAll(async () => {
    await Promise.all(kept.splice(0).map((p) => p.close()));
    await browser?.close();
  });
  afterEach(async ({ task }) => {
    const everyone = [...people, ...kept];
    // a failed test leaves a picture of each person's screen as it was (e2e/.screenshots/failed-*)
    if (task.result?.state === 'fail') {
      const slug = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
      await Promise.all(
        everyone.map((p, i) => p.screenshot(`failed-${slug}-${i}`, { settle: false, always: true }).catch(() => undefined)),
      );
    }
    const problems = everyone.flatMap((p) => p.problems.splice(0));
    await Promise.all(people.splice(0).map((p) => p.close()));
    expect(problems, 'the browser console stayed clean').toEqual([]);
  });
  const open = async (list: Person[], who?: Credentials, opts: PersonOptions & Landing = {}): Promise<Person> => {
    const { at = '/', ...personOpts } = opts;
    const p = await Person.open(browser, { ...personOpts, sessionHint: Boolean(who) });
    list.push(p);
    if (who) {
      await p.signIn(who);
      if (at !== null) {
        await p.goto(at);
        // the menu, in whichever language the person reads
        await p.page.locator('nav#nav').waitFor({ state: 'attached' });
      }
    }
    return p;
  };
  return {
    open: (who, opts) => open(people, who, opts),
    openForFile: (who, opts) => open(kept, who, opts),
  };
}
