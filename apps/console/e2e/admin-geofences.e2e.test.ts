import { describe, expect, inject, it } from 'vitest';
import { accessibilityProblems } from './support/axe';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import { browserPeople, STACK_ADMIN as ADMIN } from './support/people';

const CONSOLE = { 'x-requested-with': 'corridor-console' };
/** The map's accessible name while it shows that fence. */
const showing = (name: string) => new RegExp(`^Map with \\d+ geofences, showing ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

describe.skipIf(!inject('chromium'))('administration: geofences', () => {
  const people = browserPeople();

  it('admin draws a circle geofence below a long list: it is selected, scrolled into view and shown on the map', async () => {
    const admin = await people.open(ADMIN);
    const { page } = admin;
    // a list longer than its box: enough fences that a new one lands below the scroll
    const existing = (await (await admin.context.request.get(`${admin.baseUrl}/api/geofences`, { headers: CONSOLE })).json()) as unknown[];
    const stamp = Date.now();
    for (let i = existing.length; i < 16; i++) {
      const res = await admin.context.request.post(`${admin.baseUrl}/api/geofences`, {
        headers: CONSOLE,
        data: {
          name: `Holding yard ${stamp}-${i}`,
          kind: 'other',
          country: 'KE',
          geometry: { type: 'Point', coordinates: [36.8 + i / 100, -1.3] },
          radius: 300,
          attributes: {},
        },
      });
      expect(res.status(), await res.text()).toBe(201);
    }
    await admin.visit('/admin/geofences');
    const list = page.locator('.fence-list');
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight), 'the list scrolls').toBe(true);

    await page.getByRole('group', { name: 'Draw a geofence' }).getByRole('button', { name: 'Draw a circle' }).click();
    const form = page.getByRole('form', { name: 'New geofence' });
    const box = (await page.locator('.map canvas').first().boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.4);
    await form.getByText('1 point').waitFor();
    const name = `Weighbridge ${stamp}`;
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Save' }).click();

    // the new fence is selected, in sight inside the list's scroll box, and has the focus
    const item = page.getByRole('button', { name, exact: true });
    await page.locator(`.fence-list [aria-pressed="true"]`, { hasText: name }).waitFor();
    const inSight = await item.evaluate((el) => {
      const b = el.getBoundingClientRect();
      const l = el.closest('.fence-list')!.getBoundingClientRect();
      return {
        inside: b.top >= l.top - 1 && b.bottom <= l.bottom + 1 && b.bottom <= window.innerHeight,
        item: [b.top, b.bottom],
        list: [l.top, l.bottom],
        window: window.innerHeight,
      };
    });
    expect(inSight.inside, `the new fence is within the list box and the window: ${JSON.stringify(inSight)}`).toBe(true);
    expect(await item.evaluate((el) => el === document.activeElement)).toBe(true);
    // the map shows it
    await page.getByRole('region', { name: showing(name) }).waitFor();
    await admin.screenshot('admin-geofence-created-selected');

    // choosing another fence in the list moves the map to it; choosing it again clears the choice
    const first = list.locator('li').first().locator('button[aria-pressed]');
    const firstName = (await first.textContent())!.trim();
    await first.click();
    await page.getByRole('region', { name: showing(firstName) }).waitFor();
    await first.click();
    await page.getByRole('region', { name: /^Map with \d+ geofences$/ }).waitFor();
  });

  it("admin edits a geofence's name and shape by dragging a corner, and the API holds them", async () => {
    const admin = await people.open(ADMIN);
    const { page } = admin;
    const stamp = Date.now();
    // a square yard east of Nairobi, corners in Traccar's latitude-first WKT
    const square: [number, number][] = [
      [-1.3, 36.9],
      [-1.3, 36.92],
      [-1.32, 36.92],
      [-1.32, 36.9],
    ];
    const area = `POLYGON ((${[...square, square[0]!].map(([lat, lon]) => `${lat} ${lon}`).join(', ')}))`;
    const made = await admin.context.request.post(`${admin.baseUrl}/api/geofences`, {
      headers: CONSOLE,
      data: { name: `Yard ${stamp}`, kind: 'inland_depot', country: 'KE', area },
    });
    expect(made.status(), await made.text()).toBe(200);
    const { id } = (await made.json()) as { id: number };

    await admin.visit('/admin/geofences');
    await page.getByRole('button', { name: `Edit Yard ${stamp}` }).click();
    const form = page.getByRole('form', { name: `Edit Yard ${stamp}` });
    await form.getByText('4 points').waitFor();
    // the map has moved to the fence and stopped: the corners are where they will stay
    await page.getByRole('region', { name: showing(`Yard ${stamp}`) }).waitFor();
    await page.locator('.map[data-idle="true"]').waitFor();
    const corners = page.locator('.draft-handle');
    expect(await corners.count()).toBe(4);
    // corner 1 dragged 60 px right and 40 px down, in steps as a hand moves
    const b = (await corners.nth(0).boundingBox())!;
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2 + 60, b.y + b.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    // corner 3 moved with the keyboard
    await corners.nth(2).focus();
    await page.keyboard.press('Shift+ArrowLeft');
    await form.getByLabel('Name').fill(`Yard ${stamp} moved`);
    await form.getByLabel('Active').selectOption({ label: 'Always' });
    expect(await accessibilityProblems(page)).toEqual([]);
    await admin.screenshot('admin-geofence-edit');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    const saved = (await (await admin.context.request.get(`${admin.baseUrl}/api/geofences/${id}`, { headers: CONSOLE })).json()) as {
      name: string;
      area: string;
      kind: string;
      country: string;
    };
    expect(saved).toMatchObject({ name: `Yard ${stamp} moved`, kind: 'inland_depot', country: 'KE' });
    const ring = /^POLYGON\s*\(\((.*)\)\)$/
      .exec(saved.area)![1]!
      .split(',')
      .map((p) => p.trim().split(/\s+/).map(Number) as [number, number]);
    expect(ring).toHaveLength(5);
    // the dragged corner went east (longitude up) and south (latitude down); the untouched ones stayed
    expect(ring[0]![1]).toBeGreaterThan(36.9005);
    expect(ring[0]![0]).toBeLessThan(-1.3005);
    expect(ring[1]).toEqual(square[1]);
    expect(ring[3]).toEqual(square[3]);
    // the keyboard moved corner 3 west
    expect(ring[2]![1]).toBeLessThan(36.92);
    expect(ring[2]![0]).toBeCloseTo(-1.32, 4);
    await admin.screenshot('admin-geofence-edited');

    // a delete asks first: dismissed, the fence stays
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: `Delete Yard ${stamp} moved` }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain(`Yard ${stamp} moved`);
    expect((await admin.context.request.get(`${admin.baseUrl}/api/geofences/${id}`, { headers: CONSOLE })).status()).toBe(200);
  });

  it('a dispatcher links a fence to a truck and sees it listed, the API applying it to that truck; then unlinks it', async () => {
    const dispatcher = await people.open(DEMO_ACCOUNTS.dispatcher);
    const { page, context, baseUrl } = dispatcher;
    const stamp = Date.now();
    const name = `Depot ${stamp}`;
    // a fence of no place kind: it applies to no truck until one is linked (contracts geofenceAppliesTo)
    const made = await context.request.post(`${baseUrl}/api/geofences`, {
      headers: CONSOLE,
      data: { name, kind: 'other', area: 'CIRCLE (-1.29 36.85, 400)' },
    });
    expect(made.status(), await made.text()).toBe(200);
    const { id } = (await made.json()) as { id: number };
    const devices = (await (await context.request.get(`${baseUrl}/api/devices?limit=1000`, { headers: CONSOLE })).json()) as {
      id: number;
      name: string;
    }[];
    const truck = devices.find((d) => d.name === 'Truck 03')!;
    const fencesOf = async (deviceId: number) =>
      (
        (await (await context.request.get(`${baseUrl}/api/geofences?deviceId=${deviceId}`, { headers: CONSOLE })).json()) as {
          id: number;
        }[]
      ).map((f) => f.id);

    await dispatcher.visit('/admin/geofences');
    await page.getByRole('button', { name, exact: true }).click();
    const card = page.getByRole('region', { name: `${name} applies to` });
    await card.getByText('No truck yet.').waitFor();

    await card.getByRole('button', { name: 'Link trucks and groups' }).click();
    const dialog = page.getByRole('dialog', { name: `Trucks and groups of ${name}` });
    await dialog.getByRole('searchbox', { name: 'Search devices' }).fill('Truck 03');
    await dialog.getByRole('checkbox', { name: /^Truck 03\b/ }).check();
    await dialog.getByText(/^1 of \d+ devices and 0 groups chosen$/).waitFor();
    expect(await accessibilityProblems(page), 'the links dialog').toEqual([]);
    await dispatcher.screenshot('dispatcher-geofence-links-dialog');
    await dialog.getByRole('button', { name: 'Save links' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card
      .getByRole('list', { name: `Trucks and groups ${name} applies to` })
      .getByText('Truck 03', { exact: true })
      .waitFor();
    expect(await fencesOf(truck.id)).toContain(id);
    await dispatcher.screenshot('dispatcher-geofence-linked');

    // unlinked again: the card says it applies to no truck, and the API agrees
    await card.getByRole('button', { name: 'Link trucks and groups' }).click();
    await dialog.getByRole('checkbox', { name: /^Truck 03\b/ }).uncheck();
    await dialog.getByRole('button', { name: 'Save links' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByText('No truck yet.').waitFor();
    expect(await fencesOf(truck.id)).not.toContain(id);
  });
});
