import { randomInt } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { osmandUrl } from '@corridor/tools/sim/osmand-client';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import { accessibilityProblems } from './support/axe';
import { Gt06Tracker } from './support/gt06-tracker';
import { offCorridorTruck } from './support/off-corridor-truck';
import { stackLane } from './support/lane';
import { browserPeople, STACK_ADMIN } from './support/people';
import type { Person } from './support/session';
import { LiveMapPage } from './pages/LiveMapPage';

const CONSOLE = { 'x-requested-with': 'corridor-console' };
/** A place in words from the server's offline geocoder: "14 km NW of Voi, KE", "Voi, KE". */
const ADDRESS = /^(\d+ km [NESW]{1,2} of )?[^,]+, [A-Z]{2}$/;
/** The same in Swahili: "km 14 kaskazini-magharibi mwa Voi, KE". */
const ANWANI = /^(km \d+ [a-z-]+ mwa )?[^,]+, [A-Z]{2}$/;
/** Voi, Kenya (GeoNames: 3.39605 S, 38.55609 E); the test's own tracker stands 3 km north-east of it. */
const NEAR_VOI = { lat: -3.375, lon: 38.575 };

interface DeviceRow {
  id: number;
  name: string;
  uniqueId: string;
  status: string;
}

async function deviceNamed(person: Person, name: string): Promise<DeviceRow> {
  const res = await person.context.request.get(`${person.baseUrl}/api/devices?keyword=${encodeURIComponent(name)}`, { headers: CONSOLE });
  const device = ((await res.json()) as DeviceRow[]).find((d) => d.name === name);
  if (!device) throw new Error(`no device named ${name}`);
  return device;
}

/**
 * The dispatcher reading the console in Swahili on this browser only (`lang`, set in the browser's
 * storage before the first page). Not through the top bar's switch: it keeps the language with the
 * user, and every later sign-in of the shared demo dispatcher, in this file or another on the same
 * stack, would open in Swahili.
 */
async function mtumaji(people: ReturnType<typeof browserPeople>, at: string): Promise<Person> {
  const mtu = await people.open(DEMO_ACCOUNTS.dispatcher, { lang: 'sw', at });
  await mtu.page.locator('html[lang="sw"]').waitFor({ state: 'attached' });
  return mtu;
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  expect(await accessibilityProblems(page), `${what}: serious or critical accessibility problems`).toEqual([]);
}

/**
 * A dispatcher's shift in one file (the stack is started once for the browser tests; CI's budget is
 * 25 minutes): a truck falling silent, a replay, the base map's towns by a truck and its address, an
 * SOS alert raised by a tracker over its own protocol, a command answered by the tracker, and the
 * tracker going offline. Screenshots in English and Swahili for a person to look at (e2e/.screenshots,
 * with CONSOLE_E2E_SCREENSHOTS=1).
 *
 * The silent truck's minute passes while the other tests run: its one and last fix is the file's
 * first test, on a map that stays open (people.openForFile) until the last test, which sees that
 * map call the truck without signal once the demo stack's status timeout (a minute) has passed. The
 * tests run one after another, as before (with the minute waited inside one test the file took
 * 133 s in CI, 88 s of it that test; a concurrent describe was tried and failed in CI). The replay
 * raises its own flag (a truck of its own on a declared journey, its fixes off the corridor): it
 * waited for the demo's first flag before (Truck 01 off its corridor, a few minutes after the stack
 * starts; 187 s of the file's 391 s at load 27 on a fresh stack, 75 s in CI).
 */
describe.skipIf(!inject('chromium'))("a dispatcher's shift", () => {
  const people = browserPeople();
  /** The truck of the file's own that reports once and falls silent, and the dispatcher's map open on it since. */
  let silent: { person: Person; name: string } | undefined;

  it("a truck of the dispatcher's company reports once, moving, and the map open since it was registered shows it moving", async () => {
    const ports = stackLane().devicePorts;
    expect(ports, 'the stack tells where OsmAnd listens').not.toBeNull();
    const person = await people.openForFile(DEMO_ACCOUNTS.dispatcher, { at: '/map' });
    const { page } = person;
    await new LiveMapPage(person).mapLoaded();
    // a truck of the test's own over OsmAnd (HTTP: no connection to close) reports once, moving, then falls silent
    const silentId = `86${String(randomInt(10 ** 9, 10 ** 10))}`;
    const name = `Truck 8${silentId.slice(-1)}`;
    const admin = await people.open(STACK_ADMIN, { at: null });
    const created = await admin.context.request.post(`${admin.baseUrl}/api/devices`, {
      headers: CONSOLE,
      data: { name, uniqueId: silentId, companyId: 101, category: 'truck' },
    });
    expect(created.status(), await created.text()).toBe(200);
    // the open map hears of the new truck through the live feed (devices.v1) and lists it
    const item = page.locator('.fleet-item', { hasText: name });
    await item.waitFor();
    // its one and last fix, moving
    const lastFix = {
      deviceId: silentId,
      time: new Date(),
      lat: NEAR_VOI.lat - 0.05,
      lon: NEAR_VOI.lon,
      speedKph: 60,
      courseDeg: 90,
      altitudeM: 560,
      accuracyM: 5,
      batteryPct: 80,
    };
    expect((await fetch(osmandUrl(ports!.osmand, lastFix), { method: 'POST' })).status).toBe(200);
    // (a ceiling for the fix to reach the open map, well inside the minute before the truck turns silent)
    await expect.poll(() => item.locator('.dot').getAttribute('class'), { timeout: 30_000 }).toContain('dot-moving');
    await person.screenshot('shift-last-fix-en');
    silent = { person, name };
  });

  it(
    'follows its own GT06 tracker to Voi, sees the town named on the map and the address, sends it a command, and sees it go offline',
    { timeout: 300_000 },
    async () => {
      const ports = stackLane().devicePorts;
      expect(ports, 'the stack opens a GT06 port for this test').not.toBeNull();
      const admin = await people.open(STACK_ADMIN, { at: null });
      const imei = `35790${String(randomInt(10 ** 9, 10 ** 10))}`;
      const name = `Truck 9${imei.slice(-1)}`;
      const created = await admin.context.request.post(`${admin.baseUrl}/api/devices`, {
        headers: CONSOLE,
        data: { name, uniqueId: imei, companyId: 101, category: 'truck', model: 'GT06N' },
      });
      expect(created.status(), await created.text()).toBe(200);
      const tracker = await Gt06Tracker.connect(ports!.gt06, imei);
      try {
        await tracker.report(NEAR_VOI.lat, NEAR_VOI.lon, 40);

        const person = await people.open(DEMO_ACCOUNTS.dispatcher, { at: '/map' });
        const { page } = person;
        const map = new LiveMapPage(person);
        await map.mapLoaded();
        await map.selectTruck(name);
        const card = page.getByTestId('truck-card');
        await card.getByRole('button', { name: 'Follow' }).click();
        // the map comes to the truck and names the towns around it; the card says where it is in words
        await expect.poll(() => page.locator('.map').getAttribute('data-town-labels'), { timeout: 30_000 }).toMatch(/(^|\|)Voi(\||$)/);
        await expect.poll(() => card.getByTestId('truck-address').textContent(), { timeout: 30_000 }).toMatch(/Voi, KE$/);
        // the tracker reports again as it drives (the demo stack calls a device silent for a minute unknown), and reads "Moving"
        await tracker.report(NEAR_VOI.lat, NEAR_VOI.lon, 40);
        await expect.poll(() => card.getByTestId('truck-state').textContent()).toBe('Moving');
        await person.screenshot('shift-map-en');

        // a command, confirmed, written to the tracker over GT06; the dialog follows it as the server records it: sent, then answered
        await card.getByRole('button', { name: 'Send a command' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Command', { exact: true }).selectOption({ label: 'Engine stop' });
        await dialog.getByRole('button', { name: 'Next' }).click();
        await expect.poll(() => dialog.getByTestId('command-confirm').textContent()).toMatch(/engine will not start again/);
        const queued = page.waitForResponse((r) => r.url().endsWith('/api/commands/send') && r.request().method() === 'POST');
        await dialog.getByRole('button', { name: 'Send Engine stop' }).click();
        const command = (await (await queued).json()) as { id: number; deviceId: number; requestedAt: string };
        const state = dialog.getByTestId('command-state');
        await state.waitFor();
        const received = await tracker.nextCommand();
        expect(received.text).toBe('Relay,1#');
        // the tracker has it and has not answered: the server lists the send among the device's events, and the dialog says sent
        const stored = async (type: string) => {
          const from = new Date(Date.parse(command.requestedAt) - 60_000).toISOString();
          const to = new Date(Date.now() + 60_000).toISOString();
          const res = await person.context.request.get(
            `${person.baseUrl}/api/events?deviceId=${command.deviceId}&type=${type}&from=${from}&to=${to}`,
            { headers: CONSOLE },
          );
          return ((await res.json()) as { attributes: Record<string, unknown> }[]).map((e) => e.attributes);
        };
        // the event names the command by the integer id POST /commands/send answered (the console matches either form, live/commands.ts)
        await expect
          .poll(() => stored('queuedCommandSent'), { timeout: 30_000 })
          .toContainEqual(expect.objectContaining({ commandId: command.id }));
        await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000 }).toBe('sent');
        await tracker.answer(received, 'Cut off the fuel supply: Success!');
        await expect
          .poll(() => stored('commandResult'), { timeout: 30_000 })
          .toContainEqual(expect.objectContaining({ result: 'Cut off the fuel supply: Success!' }));
        await expect.poll(() => state.getAttribute('data-state'), { timeout: 60_000 }).toBe('answered');
        expect(await state.textContent()).toContain('The tracker answered: Cut off the fuel supply: Success!');
        await expectAccessible(page, 'command dialog');
        await person.screenshot('shift-command-en');
        await dialog.getByRole('button', { name: 'Close' }).click();

        // the tracker goes away: its connection closes and the device is offline, on the card and in the list
        await tracker.close();
        await expect.poll(() => card.getByTestId('truck-state').textContent(), { timeout: 60_000 }).toBe('Offline');
        const item = page.locator('.fleet-item', { hasText: name });
        expect(await item.locator('.dot').getAttribute('class')).toContain('dot-offline');
        expect(Number(await page.locator('.chip-offline .chip-count').textContent())).toBeGreaterThan(0);
        await expectAccessible(page, 'live map');

        const mtu = await mtumaji(people, '/map');
        await new LiveMapPage(mtu).mapLoaded();
        await mtu.page.getByRole('button', { name: new RegExp(`^${name}\\b`) }).click();
        // 3 km north-east of Voi, in Swahili
        await expect
          .poll(() => mtu.page.getByTestId('truck-address').textContent(), { timeout: 30_000 })
          .toMatch(/^km \d+ kaskazini-mashariki mwa Voi, KE$/);
        await mtu.screenshot('shift-map-sw');
      } finally {
        await tracker.close();
      }
    },
  );

  it(
    "sets an alert rule for every SOS, and a truck's SOS sent over OsmAnd pops up with where it happened",
    { timeout: 300_000 },
    async () => {
      const ports = stackLane().devicePorts;
      expect(ports, 'the stack tells where OsmAnd listens').not.toBeNull();
      const person = await people.open(DEMO_ACCOUNTS.dispatcher, { at: '/alert-rules' });
      const { page } = person;
      await person.settled();
      await page.getByRole('button', { name: 'New rule' }).click();
      const form = page.getByRole('form', { name: 'New rule' });
      await form.getByRole('checkbox', { name: 'SOS', exact: true }).check();
      await form.getByRole('button', { name: 'Save the rule' }).click();
      await page.getByRole('cell', { name: 'Alarm: SOS' }).first().waitFor();
      await expectAccessible(page, 'alert rules');

      const mtu = await mtumaji(people, '/map');
      await new LiveMapPage(mtu).mapLoaded();
      await new LiveMapPage(person).open();
      // Truck 06 (a demo truck reporting over OsmAnd) presses its SOS button where it is now
      const truck = await deviceNamed(person, 'Truck 06');
      const latest = await person.context.request.get(`${person.baseUrl}/api/positions?deviceId=${truck.id}`, { headers: CONSOLE });
      const [here] = (await latest.json()) as { latitude: number; longitude: number }[];
      const fix = {
        deviceId: truck.uniqueId,
        time: new Date(),
        lat: here!.latitude,
        lon: here!.longitude,
        speedKph: 0,
        courseDeg: 0,
        altitudeM: 0,
        accuracyM: 5,
        batteryPct: 80,
      };
      const sos = await fetch(`${osmandUrl(ports!.osmand, fix)}&alarm=sos`, { method: 'POST' });
      expect(sos.status).toBe(200);

      const alert = page.getByTestId('alert').filter({ hasText: 'SOS' });
      await alert.waitFor({ timeout: 60_000 });
      expect(await alert.textContent()).toContain('Truck 06');
      await expect.poll(() => alert.getByTestId('alert-address').textContent(), { timeout: 30_000 }).toMatch(ADDRESS);
      await expectAccessible(page, 'alert');
      // the alert leaves the map's zoom buttons free to press
      const [popup, zoom] = await Promise.all([alert.boundingBox(), page.locator('.maplibregl-ctrl-zoom-in').boundingBox()]);
      const overlaps =
        popup!.x < zoom!.x + zoom!.width &&
        zoom!.x < popup!.x + popup!.width &&
        popup!.y < zoom!.y + zoom!.height &&
        zoom!.y < popup!.y + popup!.height;
      expect(overlaps, 'the alert covers the zoom buttons').toBe(false);
      await person.screenshot('shift-alert-en');
      const tahadhari = mtu.page.getByTestId('alert').filter({ hasText: 'Truck 06' });
      await tahadhari.waitFor({ timeout: 60_000 });
      await expect.poll(() => tahadhari.getByTestId('alert-address').textContent(), { timeout: 30_000 }).toMatch(ANWANI);
      await mtu.screenshot('shift-alert-sw');
      // its link shows the place on the map, the truck chosen
      await alert.getByRole('link', { name: 'Show on the map' }).click();
      await page.getByTestId('truck-card').filter({ hasText: 'Truck 06' }).waitFor();
    },
  );

  it("replays a truck's last hour, jumps to its flag on the timeline and reads where it was", { timeout: 300_000 }, async () => {
    const ports = stackLane().devicePorts;
    expect(ports, 'the stack tells where OsmAnd listens').not.toBeNull();
    // the poll below opens the replay
    const person = await people.open(DEMO_ACCOUNTS.dispatcher, { at: null });
    const { page } = person;
    // a truck of the test's own, on a journey declared on the Central Corridor, reports its last
    // minutes near Voi, far off that corridor: the journey service opens its off-corridor flag
    // (support/off-corridor-truck.ts), so the test no longer waits for the demo's Truck 01
    const admin = await people.open(STACK_ADMIN, { at: null });
    const own = await offCorridorTruck(admin, person, ports!.osmand, { near: NEAR_VOI });
    const truck = { id: own.deviceId };
    const flag = page.getByTestId('mark-flag').first();
    // the flag's event reaches the device's events (ClickHouse) on its own way: the replay shows it once there
    await expect
      .poll(
        async () => {
          await person.goto(`/replay?device=${truck.id}`);
          await page.getByRole('button', { name: 'Show replay' }).click();
          await page.getByTestId('replay-fix').waitFor();
          return flag.count();
        },
        { timeout: 120_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    const panel = page.getByTestId('replay-fix');
    // it plays from the start of the period (the flag may be the last thing that happened)
    const start = await panel.getByTestId('fix-time').textContent();
    await page.getByTestId('replay-play').click();
    await expect.poll(() => panel.getByTestId('fix-time').textContent(), { timeout: 30_000 }).not.toBe(start);
    await page.getByTestId('replay-play').click();
    // the mark gives its minute; the fix under the cursor after the jump is of that minute (the flag opened at a fix)
    const minute = (await flag.locator('.mark-time').textContent())!;
    await flag.click();
    await expect.poll(() => panel.getByTestId('fix-time').textContent(), { timeout: 30_000 }).toContain(minute);
    // the fix at the flag's moment is told in words
    await expect.poll(() => panel.getByTestId('fix-address').textContent(), { timeout: 30_000 }).toMatch(ADDRESS);
    await expectAccessible(page, 'replay');
    await person.screenshot('shift-replay-en');
    // the period as a file for map tools: the GPX link answers the replayed fixes
    const gpx = await person.context.request.get(`${person.baseUrl}${(await page.getByTestId('export-gpx').getAttribute('href'))!}`);
    expect(gpx.status()).toBe(200);
    expect((await gpx.text()).match(/<trkpt /g)?.length ?? 0).toBeGreaterThan(10);

    // the same flag from its journey: the journey's replay opens at it
    const flaggedRes = await person.context.request.get(`${person.baseUrl}/api/journey/flagged`, { headers: CONSOLE });
    const journey = ((await flaggedRes.json()) as { id: number; deviceId: number }[]).find((j) => j.deviceId === truck.id);
    expect(journey?.id, "the flagged tab lists the truck's journey").toBe(own.journeyId);
    await person.goto(`/journeys/${own.journeyId}/replay?flag=${own.flagId}`);
    await page.getByTestId('replay-fix').waitFor();
    const minutes = await page.getByTestId('mark-flag').locator('.mark-time').allTextContents();
    const at = (await panel.getByTestId('fix-time').textContent())!;
    expect(
      minutes.some((m) => at.includes(m)),
      `${at} is at one of the flags (${minutes.join(', ')})`,
    ).toBe(true);
    await person.screenshot('shift-journey-replay-en');

    const mtu = await mtumaji(people, `/replay?device=${truck.id}`);
    await mtu.page.getByRole('button', { name: 'Onyesha marudio' }).click();
    await mtu.page.getByTestId('replay-fix').waitFor();
    await mtu.page.getByTestId('mark-flag').first().click();
    await expect.poll(() => mtu.page.getByTestId('fix-address').textContent(), { timeout: 30_000 }).toMatch(ANWANI);
    await mtu.screenshot('shift-replay-sw');
  });

  it(
    "the truck's last fix was a minute ago and more: the map open since calls it without signal, and so does GET /api/devices; the demo's silent truck too",
    { timeout: 300_000 },
    async () => {
      expect(silent, "the file's first test sent the truck's last fix and kept its map open").toBeDefined();
      const { person, name: silentName } = silent!;
      const { page } = person;
      // no longer "Moving" on the map open since its last fix, once the server stops calling it online
      // (the demo stack's status timeout is its routes' signal-loss threshold, a minute: tools/stack/config.ts statusTimeoutS)
      const silentItem = page.locator('.fleet-item', { hasText: silentName });
      await expect
        .poll(() => silentItem.locator('.dot').getAttribute('class'), { timeout: 150_000, interval: 2_000 })
        .toContain('dot-unknown');
      await page.getByRole('button', { name: new RegExp(`^${silentName}\\b`) }).click();
      await expect
        .poll(() => page.getByTestId('truck-card').getByTestId('truck-state').textContent(), { timeout: 30_000 })
        .toBe('No signal');
      expect((await deviceNamed(person, silentName)).status).toBe('unknown');
      // the demo's silent truck (Truck 03, tools/stack/demo/incidents.ts): its signal-loss flag open, and "No signal" on the map, not "Moving"
      const truck03 = await deviceNamed(person, 'Truck 03');
      const openFlags = async () => {
        const flagged = await person.context.request.get(`${person.baseUrl}/api/journey/flagged`, { headers: CONSOLE });
        return (
          ((await flagged.json()) as { deviceId: number; openFlags: string[] }[]).find((j) => j.deviceId === truck03.id)?.openFlags ?? []
        );
      };
      await expect.poll(openFlags, { timeout: 120_000, interval: 2_000 }).toContain('signalLoss');
      await expect.poll(async () => (await deviceNamed(person, 'Truck 03')).status, { timeout: 60_000 }).toBe('unknown');
      // the status change reaches the open map through the live feed (devices.v1)
      await page.getByRole('button', { name: /^Truck 03\b/ }).click();
      await expect
        .poll(() => page.getByTestId('truck-card').getByTestId('truck-state').textContent(), { timeout: 30_000 })
        .toBe('No signal');

      await person.screenshot('shift-no-signal-en');
    },
  );
});
