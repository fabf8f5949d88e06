import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { stackLane } from './lane';

const SCREENSHOTS = join(import.meta.dirname, '..', '.screenshots');
/**
 * Pictures for a person to look at are taken with CONSOLE_E2E_SCREENSHOTS=1 (`screenshot`); a failed
 * test's pictures always (people.ts). Nothing is asserted on them, and on a map screen each took
 * 4-17 s on this machine (the wait for a map that never idles while the trucks move, then the full
 * page): a quarter of dispatcher-shift's time (issue 29, browserfiles).
 */
const PICTURES = process.env.CONSOLE_E2E_SCREENSHOTS === '1';

export interface PersonOptions {
  viewport?: { width: number; height: number };
  locale?: string;
  /** Where this person opens the console (the gateway of the file's lane unless set: e.g. the gateway under a host name). */
  baseUrl?: string;
  /**
   * The console's language on this browser only ('corridor.lang', read when the console starts), set
   * before the first page: the shared demo users keep theirs (the top bar's switch saves it with the user).
   */
  lang?: 'en' | 'sw';
  /** Set when the person is signed in through the API (people.ts): the console's hint that this browser has a session (session-hint.ts). */
  sessionHint?: boolean;
}

/** One person at the console: a browser context of their own, with what went wrong in the page collected. */
export class Person {
  readonly problems: string[] = [];
  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    page.on('pageerror', (e) => this.problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') this.problems.push(`console error: ${m.text()} (${m.location().url})`);
    });
  }

  static async open(browser: Browser, opts: PersonOptions = {}): Promise<Person> {
    const baseUrl = opts.baseUrl ?? stackLane().baseUrl;
    // set once in the new context's storage, not on every page load: a sign-out later clears them as it would
    const stored = [
      ...(opts.lang ? [{ name: 'corridor.lang', value: opts.lang }] : []),
      ...(opts.sessionHint ? [{ name: 'corridor.session', value: '1' }] : []),
    ];
    const context = await browser.newContext({
      viewport: opts.viewport ?? { width: 1366, height: 850 },
      locale: opts.locale ?? 'en-GB',
      acceptDownloads: true,
      ...(stored.length ? { storageState: { cookies: [], origins: [{ origin: baseUrl, localStorage: stored }] } } : {}),
    });
    // the console checks every API response against packages/contracts when this is set
    await context.addInitScript(() => localStorage.setItem('corridor.checkResponses', '1'));
    // a ceiling for each wait on a busy 2-core CI machine, not a timing: every wait is for a condition
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    return new Person(context, page, baseUrl);
  }

  /** Signs in through the API as the sign-in screen does (POST /api/session): the session cookie is this person's browser's. */
  async signIn(who: { email: string; password: string }): Promise<void> {
    const res = await this.context.request.post(`${this.baseUrl}/api/session`, {
      data: { email: who.email, password: who.password },
      headers: { 'x-requested-with': 'corridor-console', origin: this.baseUrl },
    });
    if (res.status() !== 200) throw new Error(`sign-in of ${who.email} answered ${res.status()}: ${await res.text()}`);
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(this.baseUrl + path);
  }

  /**
   * Opens a screen and waits until it has settled: its heading is shown and nothing on it is still
   * loading (no spinner), so a screenshot shows the data, the empty state or the error state.
   */
  async visit(path: string): Promise<void> {
    await this.goto(path);
    await this.settled();
  }

  async settled(): Promise<void> {
    await this.page.locator('main h1').first().waitFor();
    await this.page.locator('.spinner').first().waitFor({ state: 'detached' });
    // a map on the screen has drawn its style and data
    await this.page.locator('.map[data-ready="false"]').first().waitFor({ state: 'detached' });
  }

  /**
   * How wide the page is against the window: the document's scroll width (at most the window's,
   * or the whole page scrolls sideways) and whether the screen's own area scrolls sideways
   * (a wide table scrolls inside its own box instead).
   */
  async overflow(): Promise<{
    documentWidth: number;
    windowWidth: number;
    contentScrollsSideways: boolean;
    tablesScrollingSideways: number;
  }> {
    return this.page.evaluate(() => {
      const content = document.querySelector('.content');
      return {
        documentWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
        windowWidth: window.innerWidth,
        contentScrollsSideways: content ? content.scrollWidth > content.clientWidth : false,
        tablesScrollingSideways: [...document.querySelectorAll('.table-wrap')].filter((t) => t.scrollWidth > t.clientWidth).length,
      };
    });
  }

  /**
   * A full-page picture of what the person sees, for a human to look at (git-ignored folder), taken
   * with CONSOLE_E2E_SCREENSHOTS=1; `always` for a failed test's picture.
   */
  async screenshot(name: string, opts: { settle?: boolean; always?: boolean } = {}): Promise<void> {
    if (!PICTURES && !opts.always) return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    // for the picture only (nothing is asserted): let a map finish drawing its tiles and layers
    if (opts.settle !== false)
      await this.page
        .locator('.map:not([data-idle="true"])')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => undefined);
    await this.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
