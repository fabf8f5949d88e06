import { describe, expect, inject, it } from 'vitest';
import { accessibilityProblems } from './support/axe';
import { browserPeople, STACK_ADMIN as ADMIN } from './support/people';

const CONSOLE = { 'x-requested-with': 'corridor-console' };

/**
 * Issue 26, "every action the API allows has a screen", on the real stack: the administrator adds,
 * edits and deletes (after a question) a device group, a driver, a maintenance schedule and a
 * computed attribute, registers and corrects a company, and the API holds what the screens sent.
 */
describe.skipIf(!inject('chromium'))('administration: groups, drivers, maintenance, computed attributes, companies', () => {
  const people = browserPeople();

  it('admin adds and edits a group, a driver, a maintenance and a computed attribute; deletes ask first', async () => {
    const admin = await people.open(ADMIN);
    const { page } = admin;
    const stamp = Date.now();
    const api = async <T>(path: string) =>
      (await (await admin.context.request.get(`${admin.baseUrl}/api${path}`, { headers: CONSOLE })).json()) as T;

    // a group inside no other, then renamed
    await admin.visit('/admin/groups');
    await page.getByRole('button', { name: 'New group' }).click();
    let form = page.getByRole('form', { name: 'New group' });
    await form.getByLabel('Name').fill(`Night shift ${stamp}`);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: `Night shift ${stamp}`, exact: true }).waitFor();
    await page.getByRole('button', { name: `Edit Night shift ${stamp}` }).click();
    form = page.getByRole('form', { name: `Edit Night shift ${stamp}` });
    await form.getByLabel('Name').fill(`Night shift ${stamp} B`);
    expect(await accessibilityProblems(page)).toEqual([]);
    await admin.screenshot('admin-groups-edit');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: `Night shift ${stamp} B`, exact: true }).waitFor();
    expect((await api<{ name: string }[]>('/groups')).map((g) => g.name)).toContain(`Night shift ${stamp} B`);

    // a driver, refused by the contract first, then added
    await admin.visit('/admin/drivers');
    await page.getByRole('button', { name: 'New driver' }).click();
    form = page.getByRole('form', { name: 'New driver' });
    await form.getByLabel('Name').fill('Juma Hamisi');
    await form.getByLabel('Card or tag id').fill('card 42!');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByLabel('Card or tag id').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Card or tag id').fill(`RFID-${stamp}`);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: `RFID-${stamp}`, exact: true }).waitFor();
    await admin.screenshot('admin-drivers');

    // a maintenance every 10,000 km: kept in metres
    await admin.visit('/admin/maintenance');
    await page.getByRole('button', { name: 'New maintenance' }).click();
    form = page.getByRole('form', { name: 'New maintenance' });
    await form.getByLabel('Name').fill(`Oil change ${stamp}`);
    await form.getByLabel('First due at (km)').fill('10000');
    await form.getByLabel('Then every (km)').fill('10000');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: `Oil change ${stamp}`, exact: true }).waitFor();
    const oil = (await api<{ name: string; type: string; start: number; period: number }[]>('/maintenance')).find(
      (m) => m.name === `Oil change ${stamp}`,
    );
    expect(oil).toMatchObject({ type: 'totalDistance', start: 10_000_000, period: 10_000_000 });
    await admin.screenshot('admin-maintenance');

    // a computed attribute
    await admin.visit('/admin/computed-attributes');
    await page.getByRole('button', { name: 'New computed attribute' }).click();
    form = page.getByRole('form', { name: 'New computed attribute' });
    await form.getByLabel('Description').fill(`Driving fast ${stamp}`);
    await form.getByLabel('Attribute name').fill('fast');
    await form.getByLabel('Type').selectOption({ label: 'Yes or no' });
    await form.getByLabel('Expression').fill('speed > 45');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: `Driving fast ${stamp}`, exact: true }).waitFor();
    const computed = (await api<{ description: string; type: string; expression: string }[]>('/attributes/computed')).find(
      (c) => c.description === `Driving fast ${stamp}`,
    );
    expect(computed).toMatchObject({ type: 'Boolean', expression: 'speed > 45' });
    await admin.screenshot('admin-computed-attributes');

    // a delete asks first: dismissed, it stays; accepted, it goes
    const del = page.getByRole('button', { name: `Delete Driving fast ${stamp}` });
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await del.click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain(`Driving fast ${stamp}`);
    expect(await page.getByRole('cell', { name: `Driving fast ${stamp}`, exact: true }).count()).toBe(1);
    page.once('dialog', (d) => void d.accept());
    await del.click();
    await page.getByRole('cell', { name: `Driving fast ${stamp}`, exact: true }).waitFor({ state: 'detached' });
    expect((await api<{ description: string }[]>('/attributes/computed')).map((c) => c.description)).not.toContain(`Driving fast ${stamp}`);
  });

  it('admin registers a company and corrects it, in English and Swahili', async () => {
    const admin = await people.open(ADMIN);
    const { page } = admin;
    const name = `Rusumo Haulage ${Date.now()}`;
    await admin.visit('/admin/companies');
    await page.getByRole('button', { name: 'Register a company' }).click();
    const form = page.getByRole('form', { name: 'Register a company' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Country').selectOption('RW');
    await form.getByLabel('Kind').selectOption({ label: 'Transporter' });
    await form.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${name} is saved.` })
      .waitFor();
    await page.getByRole('searchbox').fill(name);
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('form', { name: `Edit ${name}` });
    await edit.getByLabel('Kind').selectOption({ label: 'Shipper' });
    await edit.getByLabel('Registration number').fill('RDB-2026-77');
    expect(await accessibilityProblems(page)).toEqual([]);
    await admin.screenshot('admin-company-edit');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${name} is saved.` })
      .waitFor();
    const found = (await (
      await admin.context.request.get(`${admin.baseUrl}/api/companies?q=${encodeURIComponent(name)}`, { headers: CONSOLE })
    ).json()) as { items: Record<string, unknown>[] };
    expect(found.items).toEqual([
      expect.objectContaining({ name, country: 'RW', kind: 'shipper', registrationNumber: 'RDB-2026-77', taxPin: null }),
    ]);

    const sw = await people.open(ADMIN, { lang: 'sw', at: '/admin/companies' });
    await sw.settled();
    await sw.page.getByRole('button', { name: 'Sajili kampuni' }).click();
    await sw.page.getByRole('form', { name: 'Sajili kampuni' }).getByRole('button', { name: 'Hifadhi' }).click();
    await expect
      .poll(() => sw.page.getByRole('form', { name: 'Sajili kampuni' }).locator('[aria-invalid="true"]').count())
      .toBeGreaterThanOrEqual(3);
    await sw.screenshot('admin-company-new-sw-refused');
  });
});
