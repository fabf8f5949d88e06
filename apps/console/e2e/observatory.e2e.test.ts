import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, inject, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import type { Person } from './support/session';
import { browserPeople } from './support/people';
import { accessibilityProblems } from './support/axe';

/**
 * The corridor observatory on the demo's figures (tools/stack/demo/observatory-history.ts: the
 * simulated trucks' last weeks folded by the geofence service's tracker): an analyst opens it,
 * chooses a month, and downloads the table; officers and a company see it in English and Swahili,
 * axe-core finds no serious or critical problem, and each view is photographed (apps/console/e2e/.screenshots).
 */
async function expectAxeClean(person: Person, what: string): Promise<void> {
  expect(await accessibilityProblems(person.page), `${what}: axe`).toEqual([]);
}

/** The month of a week ago: the demo's history covers it whatever day of the month the tests run. */
const thisMonth = () => new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 7);

describe.skipIf(!inject('chromium'))('the corridor observatory', () => {
  const people = browserPeople();

  it('an analyst opens the observatory, chooses a month, and downloads the waiting times it shows', async () => {
    const analyst = await people.open(DEMO_ACCOUNTS.analyst, { at: '/observatory' });
    await analyst.settled();
    const table = analyst.page.getByRole('table', { name: 'Waiting times by place' });
    await table
      .getByRole('row', { name: /Malaba OSBP/ })
      .first()
      .waitFor();
    await analyst.screenshot('observatory-analyst');
    await expectAxeClean(analyst, 'analyst /observatory');

    const month = thisMonth();
    await analyst.page.getByTestId('obs-month').fill(month);
    await analyst.page.getByTestId('obs-apply').click();
    await analyst.page.waitForURL(
      (u) => u.searchParams.get('from')?.startsWith(`${month}-01`) === true || u.searchParams.get('from')?.slice(0, 7) === month,
    );
    await analyst.settled();
    await table
      .getByRole('row', { name: /Malaba OSBP/ })
      .first()
      .waitFor();
    // every week shown began in the month chosen or is the week it began in
    const periods = await table.locator('tbody tr td:first-child').allTextContents();
    expect(periods.length).toBeGreaterThan(0);

    const [csv] = await Promise.all([analyst.page.waitForEvent('download'), analyst.page.getByTestId('obs-csv').click()]);
    expect(csv.suggestedFilename()).toMatch(/^waiting-times-.*\.csv$/);
    const text = readFileSync((await csv.path())!, 'utf8');
    const [head, ...rows] = text.trim().split('\n');
    expect(head).toContain('Median wait');
    expect(rows.some((r) => r.includes('Malaba OSBP') && r.includes('all companies'))).toBe(true);
    // the file's rows are the table's
    expect(rows.length).toBe(periods.length);

    const [xlsx] = await Promise.all([analyst.page.waitForEvent('download'), analyst.page.getByTestId('obs-xlsx').click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await xlsx.path())!);
    expect(book.worksheets[0]!.rowCount).toBe(rows.length + 1);
    // an analyst reads how the figures are counted but does not change it
    await analyst.page.getByTestId('obs-settings').waitFor();
    expect(await analyst.page.getByTestId('obs-settings-edit').count()).toBe(0);
  });

  it('an officer sets the long wait at border posts, and the waiting times are counted by it', async () => {
    const officer = await people.open(DEMO_ACCOUNTS.officer, { at: '/observatory' });
    await officer.settled();
    const table = officer.page.getByRole('table', { name: 'Waiting times by place' });
    const malaba = table.getByRole('row', { name: /Malaba OSBP/ }).first();
    await malaba.waitFor();
    await officer.page.getByTestId('obs-settings-edit').click();
    const border = officer.page.getByLabel('Border post: a wait longer than this is long, minutes');
    const before = await border.inputValue();
    await border.fill('0');
    await border.blur();
    await officer.page.locator('[aria-invalid="true"]').first().waitFor();
    expect(await border.getAttribute('aria-invalid')).toBe('true');
    await officer.screenshot('observatory-officer-settings');
    await expectAxeClean(officer, 'officer settings form');
    const setBorder = async (minutes: string) => {
      if (!(await border.isVisible())) await officer.page.getByTestId('obs-settings-edit').click();
      await border.fill(minutes);
      await officer.page.getByTestId('obs-settings-save').click();
      await officer.page.getByRole('status').filter({ hasText: 'The new thresholds are saved' }).waitFor();
    };
    try {
      await setBorder('301');
      await officer.page
        .getByTestId('obs-settings')
        .getByText(/Border post: a wait over 5 hrs? 1 min/)
        .waitFor();
      // the table is read again with the new threshold
      await malaba.getByText(/> 5 hrs? 1 min/).waitFor();
    } finally {
      // the stack's other browser tests see the demo's settings as they were
      await setBorder(before);
    }
  });

  it("an officer sees each corridor's transit times by week, and the map, in English and Swahili", async () => {
    const officer = await people.open(DEMO_ACCOUNTS.officer, { at: '/observatory?show=transit' });
    await officer.settled();
    await officer.page
      .getByRole('table', { name: 'Transit times by segment' })
      .getByRole('row', { name: /Malaba OSBP/ })
      .first()
      .waitFor();
    await officer.screenshot('observatory-officer-transit');
    await expectAxeClean(officer, 'officer transit');
    const sw = officer;
    // on this browser only: the top bar's switch would keep Swahili with the shared demo officer for every later file on this stack
    await sw.page.evaluate(() => localStorage.setItem('corridor.lang', 'sw'));
    await sw.visit('/observatory');
    await sw.page.getByRole('heading', { name: 'Kituo cha uchunguzi wa ushoroba' }).waitFor();
    await sw.page
      .getByRole('table', { name: 'Muda wa kusubiri kwa mahali' })
      .getByRole('row', { name: /Malaba OSBP/ })
      .first()
      .waitFor();
    await sw.screenshot('observatory-officer-sw');
    await expectAxeClean(sw, 'officer in Swahili');
  });

  it('a company sees its own trucks against the other companies together, never another company by name', async () => {
    const company = await people.open(DEMO_ACCOUNTS.company, { at: '/observatory' });
    await company.settled();
    const table = company.page.getByRole('table', { name: 'Waiting times by place' });
    await table
      .getByRole('row', { name: /Your company/ })
      .first()
      .waitFor();
    const text = await table.textContent();
    expect(text).toContain('The other companies');
    expect(text).not.toMatch(/Msasani|Ltd/);
    expect(await company.page.getByRole('combobox', { name: 'Company', exact: true }).count(), 'no company filter for a company').toBe(0);
    await company.screenshot('observatory-company');
    await expectAxeClean(company, 'company');
  });
});
