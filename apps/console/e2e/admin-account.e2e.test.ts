import { describe, expect, inject, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import { browserPeople, STACK_ADMIN as ADMIN } from './support/people';
import { SignInPage } from './pages/SignInPage';
import { AccountPage } from './pages/AccountPage';
import { accessibilityProblems } from './support/axe';

const CONSOLE = { 'x-requested-with': 'corridor-console' };

describe.skipIf(!inject('chromium'))('administration and the account at the console', () => {
  const people = browserPeople();

  it('admin draws a polygon geofence on the map and it is saved with that shape', async () => {
    const admin = await people.open(ADMIN, { at: '/admin/geofences' });
    await admin.settled();
    await admin.page.getByRole('group', { name: 'Draw a geofence' }).getByRole('button', { name: 'Draw a polygon' }).click();
    const form = admin.page.getByRole('form', { name: 'New geofence' });
    const box = (await admin.page.locator('.map canvas').first().boundingBox())!;
    const corners = [
      [0.45, 0.45],
      [0.55, 0.45],
      [0.55, 0.55],
      [0.45, 0.55],
    ] as const;
    for (const [i, [x, y]] of corners.entries()) {
      await admin.page.mouse.click(box.x + box.width * x, box.y + box.height * y);
      await form.getByText(`${i + 1} point`).waitFor();
    }
    const name = `Test yard ${Date.now()}`;
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Kind').selectOption({ label: 'Inland depot' });
    await form.getByLabel('Country').selectOption('KE');
    await form.getByRole('button', { name: 'Save' }).click();
    await admin.page.getByRole('button', { name, exact: true }).waitFor();
    await admin.screenshot('admin-geofence-drawn');
    const res = await admin.context.request.get(`${admin.baseUrl}/api/geofences`, { headers: CONSOLE });
    const saved = ((await res.json()) as { name: string; area: string }[]).find((g) => g.name === name);
    // four corners clicked, the ring closed: five points
    expect(saved?.area).toMatch(/^POLYGON\s*\(\(/);
    expect(saved!.area.split(',')).toHaveLength(5);
  });

  it("admin edits a device's speed limit and odometer, the API holds them, and the form has no serious accessibility problem", async () => {
    const admin = await people.open(ADMIN, { at: '/admin/devices' });
    await admin.settled();
    const { page } = admin;
    const first = page.getByRole('button', { name: /^Edit / }).first();
    const label = (await first.getAttribute('aria-label'))!;
    const name = label.replace(/^Edit /, '');
    await first.click();
    const form = page.getByRole('form', { name: label });
    await form.getByLabel('Speed limit (km/h)').fill('72');
    expect(await accessibilityProblems(page)).toEqual([]);
    await admin.screenshot('admin-device-edit');
    const counters = page.getByRole('form', { name: 'Odometer and engine hours' });
    await counters.getByLabel('Odometer (km)').fill('150000');
    await counters.getByRole('button', { name: 'Set readings' }).click();
    await counters.getByRole('status').filter({ hasText: 'Readings set.' }).waitFor();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const res = await admin.context.request.get(`${admin.baseUrl}/api/devices?keyword=${encodeURIComponent(name)}`, { headers: CONSOLE });
    const device = ((await res.json()) as { name: string; attributes: Record<string, number> }[]).find((d) => d.name === name)!;
    // Traccar's speedLimit is in knots: 72 km/h is 38.88 kn
    expect(device.attributes.speedLimit).toBeCloseTo(72 / 1.852, 6);

    // in Swahili, the same form reads in Swahili
    const sw = await people.open(ADMIN, { lang: 'sw', at: '/admin/devices' });
    await sw.settled();
    await sw.page.getByRole('button', { name: `Hariri ${name}` }).click();
    await sw.page
      .getByRole('form', { name: `Hariri ${name}` })
      .getByLabel('Kikomo cha kasi (km/h)')
      .waitFor();
    await sw.screenshot('admin-device-edit-sw');
  });

  it("admin lifts a user's sign-in lock and is told the user can sign in again", async () => {
    const admin = await people.open(ADMIN, { at: '/admin/users' });
    await admin.settled();
    const { page } = admin;
    await page.getByRole('searchbox').fill(DEMO_ACCOUNTS.dispatcher.email);
    const row = page.getByRole('row').filter({ hasText: DEMO_ACCOUNTS.dispatcher.email });
    await row.getByRole('button', { name: 'Lift sign-in lock' }).click();
    await page.getByRole('status').filter({ hasText: 'can sign in again' }).waitFor();
    await admin.screenshot('admin-users-unlocked');
  });

  it("admin sees a user's company by name when it is beyond the first page of the companies list the screen loaded", async () => {
    const admin = await people.open(ADMIN);
    const { page } = admin;
    const email = `far-company-${Date.now()}@corridor.test`;
    const created = await admin.context.request.post(`${admin.baseUrl}/api/users`, {
      headers: CONSOLE,
      data: { name: 'Neema Msasani', email, password: 'a-long-enough-password', roles: ['company_user'], companyId: 202 },
    });
    expect(created.status(), await created.text()).toBe(200);
    // the list's page narrowed to two companies (the stack has seven), as when there are more companies
    // than one page holds: Msasani (202) is not on the first page, which the server answers as usual
    const listed: number[] = [];
    await page.route(/\/api\/companies\?/, async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '2');
      const res = await route.fetch({ url: url.toString() });
      listed.push(...((await res.json()) as { items: { id: number }[] }).items.map((c) => c.id));
      await route.fulfill({ response: res });
    });
    const readById = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/companies/202');
    await admin.visit('/admin/users');
    await page.getByRole('searchbox').fill(email);
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByText('Msasani Corridor Logistics Ltd').waitFor();
    expect((await readById).status()).toBe(200);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed).not.toContain(202);
    await admin.screenshot('admin-users-company-beyond-list');
  });

  it('a user sets up two-step sign-in, signs in with a code from the authenticator, then turns it off and signs in with the password alone', async () => {
    // a user of its own: the demo accounts stay on passwords for the other tests
    const admin = await people.open(ADMIN);
    const who = { email: `totp-${Date.now()}@corridor.test`, password: 'two-steps-are-better' };
    const created = await admin.context.request.post(`${admin.baseUrl}/api/users`, {
      headers: CONSOLE,
      data: { name: 'Tumaini Two-Step', email: who.email, password: who.password, roles: ['dispatcher'] },
    });
    expect(created.status(), await created.text()).toBe(200);

    const user = await people.open(who);
    const app = await new AccountPage(user).enrolTotp('Tumaini Two-Step');
    await user.screenshot('account-totp-on');
    await new SignInPage(user).signOut();

    // the password alone is no longer enough: the code is asked for
    await new SignInPage(user).open();
    await user.page.getByLabel('Email or login').fill(who.email);
    await user.page.getByLabel('Password').fill(who.password);
    await user.page.getByRole('button', { name: 'Sign in' }).click();
    const code = user.page.getByLabel('Six-digit code');
    await code.waitFor();
    await user.screenshot('sign-in-code');
    // a wrong code (five steps on: outside the window) is said as such under the field, once, in words (the gateway's
    // reason codeWrong), not as a failed sign-in; the first failure costs no wait
    await code.fill(app.generate({ timestamp: Date.now() + 5 * 30_000 }));
    await user.page.getByRole('button', { name: 'Verify' }).click();
    const wrong = 'The code is wrong or has expired. Enter the code your authenticator app shows now.';
    await user.page.getByText(wrong).waitFor();
    expect(await user.page.getByText(wrong).count()).toBe(1);
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    await user.screenshot('sign-in-wrong-code');
    // a code from the next step: the enrolment's code was used (a code counts once); the server accepts one step either side
    await code.fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await user.page.getByRole('button', { name: 'Verify' }).click();
    await user.page.getByRole('navigation', { name: 'Main navigation', includeHidden: true }).waitFor({ state: 'attached' });
    // the 401 that asked for the code is the answer expected (WWW-Authenticate: TOTP), not a fault
    user.problems.splice(0, user.problems.length, ...user.problems.filter((p) => !(p.includes('401') && p.includes('/api/session'))));

    // the phone is lost: the user turns two-step sign-in off with the password, and the password alone signs in again
    await new AccountPage(user).disableTotp('Tumaini Two-Step', { password: who.password });
    await user.screenshot('account-totp-off');
    const me = await user.context.request.get(`${user.baseUrl}/api/session`, { headers: CONSOLE });
    expect((await me.json()) as { totpEnabled: boolean }).toMatchObject({ totpEnabled: false });
    const signIn = new SignInPage(user);
    await signIn.signOut();
    await signIn.signIn(who);
  });
});
