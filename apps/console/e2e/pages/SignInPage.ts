import { expect } from 'vitest';
import type { Person } from '../support/session';

export interface Credentials {
  email: string;
  password: string;
}

/** The sign-in screen. */
export class SignInPage {
  constructor(private readonly person: Person) {}

  async open(): Promise<this> {
    await this.person.goto('/');
    await this.person.page.getByLabel('Email or login').waitFor();
    return this;
  }

  async signIn(who: Credentials): Promise<void> {
    const { page } = this.person;
    await page.getByLabel('Email or login').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main navigation', includeHidden: true }).waitFor({ state: 'attached' });
  }

  async failsWith(who: Credentials, message: string): Promise<void> {
    const { page } = this.person;
    await page.getByLabel('Email or login').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(message);
  }

  async signOut(): Promise<void> {
    await this.person.page.getByRole('button', { name: 'Sign out' }).click();
    await this.person.page.getByLabel('Email or login').waitFor();
  }
}
