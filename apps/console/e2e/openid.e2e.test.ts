import { describe, expect, inject, it } from 'vitest';
import { lanesKnowOpenId, stackLane } from './support/lane';
import { browserPeople } from './support/people';
import { mapHostTo, OPENID } from './support/openid';
import { SignInPage } from './pages/SignInPage';

/**
 * Sign-in through the OpenID button, end to end: the console on the stack, a real OpenID provider
 * (oidc-provider with its development sign-in pages) and Chromium between them. The provider's
 * redirect address names the gateway by a host name, which this browser maps to the gateway's port.
 */
describe.skipIf(!inject('chromium') || !lanesKnowOpenId())('OpenID sign-in at the console', () => {
  const people = browserPeople({ args: () => [mapHostTo(OPENID.host, stackLane().baseUrl)] });

  it('signs in through the provider and lands in the console as the user its groups map to, then signs out', async () => {
    const openId = stackLane().openId!;
    const person = await people.open(undefined, { baseUrl: `http://${openId.host}` });
    const { page } = person;
    // the provider's development pages ask for a web font (no internet here) and their favicon:
    // answered empty, so what the browser console reports is the console's and the flow's own
    await page.route('https://fonts.googleapis.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
    await page.route(`${openId.issuer}/favicon.ico`, (route) => route.fulfill({ status: 204 }));
    // the sign-in screen offers OpenID, and does not ask the server for a session it cannot have (no 404 in the console)
    await new SignInPage(person).open();
    const button = page.getByRole('link', { name: 'Sign in with your organisation' });
    await button.waitFor();
    await person.screenshot('sign-in-openid');
    await button.click();

    // at the provider: its own sign-in page, then its consent page
    await page.waitForURL((u) => u.origin === openId.issuer);
    await page.locator('input[name="login"]').fill('wanjiru');
    await page.locator('input[name="password"]').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    // back in the console, signed in as the mapped user
    await page.getByRole('navigation', { name: 'Main navigation', includeHidden: true }).waitFor({ state: 'attached' });
    expect(new URL(page.url()).host).toBe(openId.host);
    await page.getByRole('banner').getByRole('link', { name: OPENID.accounts.wanjiru.name, exact: true }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/session')).json());
    expect(me).toMatchObject({ email: OPENID.accounts.wanjiru.email, name: OPENID.accounts.wanjiru.name, roles: ['dispatcher'] });
    await person.settled();
    await person.screenshot('openid-signed-in');

    await new SignInPage(person).signOut();
    await person.goto('/map');
    await page.getByLabel('Email or login').waitFor(); // signed out: the map sends them back to sign-in
  });
});
