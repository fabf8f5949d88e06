import { describe, expect, inject, it } from 'vitest';
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
        data: { name: `Holding yard ${stamp}-${i}`, kind: 'other', country: 'KE', geometry: { type: 'Point', coordinates: [36.8 + i / 100, -1.3] }, radius: 300, attributes: {} },
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
      return { inside: b.top >= l.top - 1 && b.bottom <= l.bottom + 1 && b.bottom <= window.innerHeight, item: [b.top, b.bottom], list: [l.top, l.bottom], window: window.innerHeight };
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
});
