import type { Locator } from 'playwright-core';
import type { Person } from '../support/session';

/** The journeys board, the journey form and a journey's detail. */
export class JourneyPages {
  constructor(private readonly person: Person) {}

  private get page() {
    return this.person.page;
  }

  async board(tab: 'active' | 'flagged' | 'completed'): Promise<Locator> {
    await this.person.visit(`/journeys?tab=${tab}`);
    return this.page.getByRole('tabpanel');
  }

  /** Declares a journey from the form; lands on its detail. Options are chosen by the start of their text. */
  async create(truck: string, route: (name: string) => boolean): Promise<number> {
    await this.person.visit('/journeys/new');
    const form = this.page.getByRole('form', { name: 'New journey' });
    const trucks = form.getByLabel('Truck', { exact: true });
    await trucks.selectOption({ label: await optionLabel(trucks, (t) => t.startsWith(`${truck} (`)) });
    const routes = form.getByLabel('Route', { exact: true });
    await routes.selectOption({ label: await optionLabel(routes, route) });
    await form.getByLabel('Number plate', { exact: true }).fill('KDE 404X');
    await form.getByRole('button', { name: 'Create journey' }).click();
    await this.page.waitForURL(/\/journeys\/\d+$/);
    await this.person.settled();
    return Number(/\/journeys\/(\d+)$/.exec(this.page.url())![1]);
  }

  /** The flag of a type on the open journey's timeline. */
  flag(type: string): Locator {
    return this.page.getByTestId(`flag-${type}`);
  }

  /** Acknowledges or resolves a flag on the open journey with a note. */
  async review(type: string, action: 'Acknowledge' | 'Resolve', note: string): Promise<void> {
    await this.flag(type).getByRole('button', { name: action }).click();
    const dialog = this.page.getByRole('dialog');
    await dialog.getByLabel(/^Note/).fill(note);
    await dialog.getByRole('button', { name: action }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** Cancels the open journey with a reason. */
  async cancel(reason: string): Promise<void> {
    await this.page.locator('.screen-head').getByRole('button', { name: 'Cancel journey' }).click();
    const dialog = this.page.getByRole('dialog');
    await dialog.getByLabel(/^Reason/).fill(reason);
    await dialog.getByRole('button', { name: 'Cancel journey' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
}

async function optionLabel(select: Locator, match: (text: string) => boolean): Promise<string> {
  await select.locator('option').nth(1).waitFor({ state: 'attached' });
  const labels = (await select.locator('option').allTextContents()).map((t) => t.trim());
  const found = labels.find(match);
  if (!found) throw new Error(`no option matches among ${labels.join(' | ')}`);
  return found;
}
