import { describe, expect, inject, it } from 'vitest';
import type { Route } from 'playwright-core';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import { stackLane } from './support/lane';
import { registerOwnTruck, reportFrom } from './support/off-corridor-truck';
import { browserPeople, STACK_ADMIN } from './support/people';
import type { Person } from './support/session';
import { SignInPage } from './pages/SignInPage';
import { LiveMapPage } from './pages/LiveMapPage';
import { JourneyPages } from './pages/JourneyPages';

const CONSOLE = { 'x-requested-with': 'corridor-console' };
/** 3 km north-east of Voi, Kenya, on the Northern Corridor. */
const NEAR_VOI = { lat: -3.375, lon: 38.575 };
/** The kinds the demo scripts, on the board's pills, and the truck of each (tools/stack/demo/incidents.ts). */
const DEMO_KINDS = [
  { label: 'Off corridor', truck: 'Truck 01' },
  { label: 'Unauthorized stop', truck: 'Truck 02' },
  { label: 'Signal loss', truck: 'Truck 03' },
  { label: 'Overspeed', truck: 'Truck 04' },
] as const;

/** The demo trucks' journeys and their flags as the API tells them (what a failure of the flagged board needs to be read). */
async function demoFlags(person: Person): Promise<string> {
  const get = async <T>(path: string): Promise<T> =>
    (await person.context.request.get(`${person.baseUrl}${path}`, { headers: CONSOLE })).json() as Promise<T>;
  const devices = await get<{ id: number; name: string; status: string }[]>('/api/devices?keyword=Truck%200');
  const lines: string[] = [];
  for (const { truck } of DEMO_KINDS) {
    const device = devices.find((d) => d.name === truck);
    if (!device) {
      lines.push(`${truck}: no such device`);
      continue;
    }
    const journeys = (
      await Promise.all(
        (['active', 'flagged', 'completed'] as const).map((tab) =>
          get<{ id: number; state: string }[]>(`/api/journey/${tab}?deviceId=${device.id}&limit=5`),
        ),
      )
    ).flat();
    const described = await Promise.all(
      [...new Map(journeys.map((j) => [j.id, j])).values()].map(async (j) => {
        const { flags } = await get<{ flags: { type: string; openedAt: string; clearedAt: string | null; resolvedAt: string | null }[] }>(
          `/api/journey/${j.id}`,
        );
        const said = flags.map(
          (f) =>
            `${f.type} opened ${f.openedAt}${f.clearedAt ? `, cleared ${f.clearedAt}` : ''}${f.resolvedAt ? `, resolved ${f.resolvedAt}` : ''}`,
        );
        return `journey ${j.id} ${j.state}: ${said.join('; ') || 'no flags'}`;
      }),
    );
    lines.push(`${truck} (${device.status}): ${described.join(' | ') || 'no journey'}`);
  }
  return `${lines.join('. ')} (now ${new Date().toISOString()})`;
}

describe.skipIf(!inject('chromium'))('a dispatcher at the console', () => {
  const people = browserPeople();

  it('is refused with a wrong password, then signs in and out', async () => {
    const person = await people.open();
    const signIn = await new SignInPage(person).open();
    await person.screenshot('sign-in');
    await signIn.failsWith({ email: DEMO_ACCOUNTS.dispatcher.email, password: 'not-the-password' }, 'The email or password is not right.');
    person.problems.length = 0; // the 401 of the wrong password is the answer this step expects
    await signIn.signIn(DEMO_ACCOUNTS.dispatcher);
    await signIn.signOut();
    await person.goto('/map');
    await person.page.getByLabel('Email or login').waitFor(); // signed out: the map sends them back to sign-in
  });

  it('signs out while a screen still waits for its data, and nothing asks the server after the session ended', async () => {
    // The race of a sign-out, made to happen every time: the map's devices request is held on its
    // way to the server; at sign-out the server ends the session and only then is the held request
    // let go, before the browser hears that the session ended. A screen still mounted then gets a
    // 401 (a red line in the browser console; React error #520 when it found no user mid-render).
    // The console takes every screen down and cancels their requests before it ends the session.
    const person = await people.open();
    const { page } = person;
    const held: Route[] = [];
    await page.route('**/api/devices?*', (route) => void held.push(route));
    const signIn = await new SignInPage(person).open();
    await signIn.signIn(DEMO_ACCOUNTS.dispatcher);
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
    let ended = false;
    await page.route('**/api/session', async (route) => {
      if (route.request().method() !== 'DELETE') return route.fallback();
      const response = await route.fetch(); // the session has ended on the server
      ended = response.status() === 204;
      await page.unroute('**/api/devices?*');
      // a request the console cancelled cannot go on; one that goes on is answered before sign-out completes
      await Promise.all(
        held.map(
          async (r) =>
            (await r.continue().then(
              () => true,
              () => false,
            )) &&
            (await r
              .request()
              .response()
              .catch(() => null)),
        ),
      );
      await route.fulfill({ response });
    });
    await signIn.signOut();
    expect(ended, 'the server ended the session').toBe(true);
    await page.unroute('**/api/session');
    await person.goto('/map');
    await page.getByLabel('Email or login').waitFor();
  });

  it('watches trucks move on the live map', async () => {
    const person = await people.open(DEMO_ACCOUNTS.dispatcher, { at: '/map' });
    const map = new LiveMapPage(person);
    await map.mapLoaded();
    await expect.poll(() => map.trucksOnMap(), { timeout: 30_000 }).toBeGreaterThan(0);
    await map.selectTruck('Truck 01');
    const first = await map.selectedTruckPosition();
    await expect.poll(() => map.selectedTruckPosition(), { timeout: 30_000 }).not.toBe(first);
    await person.screenshot('live-map');
  });

  it('declares a journey, sees its flag arrive live, acknowledges and resolves it, and cancels the journey', async () => {
    const ports = stackLane().devicePorts;
    expect(ports, 'the stack tells where OsmAnd listens').not.toBeNull();
    // a truck of the test's own, declared on a Central Corridor route, then reporting from near Voi on
    // the Northern Corridor, far off that corridor (support/off-corridor-truck.ts): its flag opens as
    // soon as its fixes are in, where a demo truck's fixes took the demo thresholds' 20 s to open one
    const admin = await people.open(STACK_ADMIN, { at: null });
    const truck = await registerOwnTruck(admin, 'Declared truck');
    const person = await people.open(DEMO_ACCOUNTS.dispatcher);
    const journeys = new JourneyPages(person);
    await journeys.create(truck.name, (name) => /central/i.test(name) && name.endsWith('(demo)') && !/return/i.test(name));
    await reportFrom(ports!.osmand, truck, NEAR_VOI);
    // the flag arrives over the socket: the top bar's cue, and the timeline marks it as new
    await person.page.getByTestId('flag-cue').waitFor({ timeout: 90_000 });
    const flag = journeys.flag('offCorridor');
    await flag.and(person.page.locator('.fresh')).waitFor({ timeout: 90_000 });
    await journeys.review('offCorridor', 'Acknowledge', 'Called the driver: wrong route sheet.');
    await flag.getByText('Acknowledged', { exact: true }).waitFor();
    await person.screenshot('journey-detail');
    await journeys.review('offCorridor', 'Resolve', 'Route corrected by the office.');
    await flag.getByText('Resolved', { exact: true }).waitFor();
    await journeys.cancel('Demo test done');
    await person.page.locator('.screen-head').getByText('Cancelled').waitFor();
  });

  it(
    'sees every kind the demo scripts on the flagged tab: off corridor, unauthorized stop, signal loss, overspeed',
    { timeout: 540_000 },
    async () => {
      const person = await people.open(DEMO_ACCOUNTS.dispatcher);
      const journeys = new JourneyPages(person);
      const panel = await journeys.board('flagged');
      // The demo's incidents begin 40 s after the stack's start, each on its truck (Truck 01 to 04), and
      // every kind is on the board within about seven minutes of the start until the round ends half an
      // hour later, whatever minute the stack started (tools/stack/demo/incidents.test.ts). The board
      // refreshes itself every 30 s: a file run early waits for them (a ceiling, not a timing), one run
      // later finds them at once. All four are watched together, so a failure names every kind missing.
      const shown = async () => {
        const pills = (await panel.locator('.pill').allTextContents()).map((t) => t.trim());
        return DEMO_KINDS.filter((k) => pills.includes(k.label)).map((k) => k.label);
      };
      try {
        await expect.poll(shown, { timeout: 480_000, interval: 2_000 }).toEqual(DEMO_KINDS.map((k) => k.label));
      } catch (err) {
        const seen = await shown();
        const missing = DEMO_KINDS.filter((k) => !seen.includes(k.label));
        throw new Error(
          `not on the flagged board: ${missing.map((k) => k.label).join(', ')}. What the API says of the demo trucks' flags: ${await demoFlags(person)}`,
          { cause: err },
        );
      }
      await person.screenshot('journeys-flagged');
      await panel.getByRole('link').first().click();
      await person.settled();
      await person.page.locator('.timeline li').first().waitFor();
      await person.screenshot('journey-flagged-detail');
    },
  );

  it('lists the devices and the active journeys', async () => {
    const person = await people.open(DEMO_ACCOUNTS.dispatcher, { at: '/devices' });
    await person.settled();
    await person.page.getByRole('row').filter({ hasText: 'Truck 01' }).first().waitFor();
    await person.screenshot('devices');
    await new JourneyPages(person).board('active');
    await person.page.getByRole('tabpanel').getByRole('row').nth(1).waitFor();
    await person.screenshot('journeys-active');
  });
});
