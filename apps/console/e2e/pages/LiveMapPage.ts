import type { Person } from '../support/session';

/** The dispatcher's live map with its fleet list. */
export class LiveMapPage {
  constructor(private readonly person: Person) {}

  async open(): Promise<this> {
    await this.person.goto('/map');
    await this.mapLoaded();
    return this;
  }

  async mapLoaded(): Promise<void> {
    await this.person.page.locator('.map[data-ready="true"]').waitFor();
  }

  /** How many trucks the map says it shows (its accessible label). */
  async trucksOnMap(): Promise<number> {
    const label = (await this.person.page.locator('.map').getAttribute('aria-label')) ?? '';
    return Number(/(\d+)/.exec(label)?.[1] ?? 0);
  }

  async selectTruck(name: string): Promise<void> {
    await this.person.page.getByRole('button', { name: new RegExp(`^${name}\\b`) }).click();
    await this.person.page.getByTestId('truck-card').waitFor();
  }

  async selectedTruckPosition(): Promise<string> {
    return (await this.person.page.getByTestId('truck-position').textContent()) ?? '';
  }
}
