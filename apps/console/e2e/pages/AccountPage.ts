import { Secret, TOTP } from 'otpauth';
import type { Person } from '../support/session';

/** The account screen: two-step sign-in set up as a person does it, with an authenticator app played by the test. */
export class AccountPage {
  constructor(private readonly person: Person) {}

  /** Sets up two-step sign-in and returns the authenticator (its codes) the person would now carry. */
  async enrolTotp(userName: string): Promise<TOTP> {
    const { page } = this.person;
    // the account opens from the user's name in the top bar
    await page.getByRole('banner').getByRole('link', { name: userName, exact: true }).click();
    await this.person.settled();
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    const key = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    // the app reads the same key from the otpauth link
    const link = new URL((await page.getByRole('link', { name: 'Open in your authenticator app' }).getAttribute('href'))!);
    const app = new TOTP({ secret: Secret.fromBase32(link.searchParams.get('secret') ?? key), algorithm: 'SHA1', digits: 6, period: 30 });
    await page.getByLabel('Six-digit code').fill(app.generate());
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await page.getByRole('status').filter({ hasText: 'Two-step sign-in is on' }).waitFor();
    return app;
  }

  /** Turns two-step sign-in off on the account screen, proven by a current code (or the password, given instead). */
  async disableTotp(userName: string, proof: { code: string } | { password: string }): Promise<void> {
    const { page } = this.person;
    await page.getByRole('banner').getByRole('link', { name: userName, exact: true }).click();
    await this.person.settled();
    const form = page.getByRole('form', { name: 'Turn off two-step sign-in' });
    if ('password' in proof) {
      await form.getByRole('button', { name: 'Use your password instead' }).click();
      await form.getByLabel('Password').fill(proof.password);
    } else {
      await form.getByLabel('Six-digit code').fill(proof.code);
    }
    await form.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).waitFor();
  }
}
