import { describe, expect, inject, it } from 'vitest';
import ExcelJS from 'exceljs';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
import { accessibilityProblems } from './support/axe';
import { browserPeople } from './support/people';
import type { Person } from './support/session';

/**
 * Issue 26, reports an analyst can trust, on the demo stack: the "Last 90 days" preset and its
 * download either work or say why on the page, a period longer than the server allows is refused
 * in words on the page for the table and the files alike; the file is headed in words and units.
 */
describe.skipIf(!inject('chromium'))('analyst: reports', () => {
  const people = browserPeople();

  async function chooseAllTrucks(analyst: Person, kind: string) {
    const form = analyst.page.getByRole('form', { name: 'Reports' });
    await form.getByLabel('Report').selectOption({ label: kind });
    await form.getByRole('group', { name: 'Devices', exact: true }).getByRole('checkbox').nth(2).waitFor();
    await form.getByRole('button', { name: /^Select (all \d+|the 1) shown$/ }).click();
    return form;
  }

  /** The speeds of each row of the trips table on the screen, in km/h as shown. */
  async function tableSpeeds(analyst: Person): Promise<{ average: number; top: number; row: string }[]> {
    return analyst.page.getByRole('table', { name: 'Trips' }).evaluate((table) => {
      const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
      const [avg, top] = [heads.indexOf('Average speed'), heads.indexOf('Top speed')];
      const kmh = (s: string | undefined) => Number((s ?? '').replace(/[^\d.]/g, ''));
      return [...table.querySelectorAll('tbody tr')].map((tr) => {
        const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim());
        return { average: kmh(cells[avg]), top: kmh(cells[top]), row: cells.join(' | ') };
      });
    });
  }

  it("the 90-day trips report and its Excel file work, the file headed in words and the user's units", async () => {
    const analyst = await people.open(DEMO_ACCOUNTS.analyst, { at: '/reports' });
    await analyst.settled();
    const form = await chooseAllTrucks(analyst, 'Trips');
    await form.getByRole('button', { name: 'Last 90 days' }).click();
    // the demo's past is stored behind the live trucks: asked again until trips are there
    await expect
      .poll(
        async () => {
          await form.getByRole('button', { name: 'Show report' }).click();
          await analyst.page
            .getByText(/rows? in .* s\.|Something went wrong/)
            .first()
            .waitFor();
          expect(await analyst.page.locator('.state-error').count(), 'the 90-day report is not refused').toBe(0);
          return (await tableSpeeds(analyst)).length;
        },
        { timeout: 150_000, interval: 5_000 },
      )
      .toBeGreaterThan(0);
    expect(await accessibilityProblems(analyst.page)).toEqual([]);
    await analyst.screenshot('reports-trips-90-days');

    const [download] = await Promise.all([
      analyst.page.waitForEvent('download'),
      form.getByRole('link', { name: 'Download Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^trips-.*\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const sheet = book.worksheets[0]!;
    const heads = (sheet.getRow(1).values as unknown[]).map(String);
    expect(heads, "headed in words and the user's unit").toEqual(
      expect.arrayContaining(['Average speed (km/h)', 'Top speed (km/h)', 'Distance (km)']),
    );
    expect(sheet.rowCount).toBeGreaterThan(1);
  });

  // a trip of Truck 01 in the demo history once read 1.6 km in 8 min, average 12 km/h, top speed 0 km/h; and a live
  // truck, started far from where its stored past left it, a trip of 143.9 km/h against 72.1 (the leg between them)
  it('no trip of the demo is faster on average than at its top speed, on screen or in the file', async () => {
    const analyst = await people.open(DEMO_ACCOUNTS.analyst, { at: '/reports' });
    await analyst.settled();
    const form = await chooseAllTrucks(analyst, 'Trips');
    await form.getByRole('button', { name: 'Last 90 days' }).click();
    await form.getByRole('button', { name: 'Show report' }).click();
    await analyst.page.getByText(/rows? in .* s\./).waitFor();
    const rows = await tableSpeeds(analyst);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.average, `average at most the top speed: ${r.row}`).toBeLessThanOrEqual(r.top);
    const [download] = await Promise.all([
      analyst.page.waitForEvent('download'),
      form.getByRole('link', { name: 'Download Excel' }).click(),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const sheet = book.worksheets[0]!;
    const heads = (sheet.getRow(1).values as unknown[]).map(String);
    const [avg, top] = [heads.indexOf('Average speed (km/h)'), heads.indexOf('Top speed (km/h)')];
    expect(sheet.rowCount).toBeGreaterThan(1);
    for (let i = 2; i <= sheet.rowCount; i++) {
      const row = sheet.getRow(i);
      expect(Number(row.getCell(avg).value), `row ${i}: ${(row.values as unknown[]).join(' | ')}`).toBeLessThanOrEqual(
        Number(row.getCell(top).value),
      );
    }
  });

  it('a period longer than the server allows is refused in words on the page, for the table and the download alike', async () => {
    const analyst = await people.open(DEMO_ACCOUNTS.analyst, { at: '/reports' });
    await analyst.settled();
    const form = await chooseAllTrucks(analyst, 'Summary');
    // 120 days back from now
    const from = new Date(Date.now() - 120 * 86_400_000);
    const local = new Date(from.getTime() - from.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await form.getByLabel('From').fill(local);
    await form.getByRole('button', { name: 'Show report' }).click();
    const refusal = analyst.page.locator('.state-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      /A report covers at most 92 days, and this period spans 12[01]\. Choose a shorter period\./,
    );
    await analyst.screenshot('reports-period-refused');

    // the download: no file, the same sentence on the page under its own heading
    let downloads = 0;
    analyst.page.on('download', () => void downloads++);
    await form.getByRole('link', { name: 'Download Excel' }).click();
    const failed = analyst.page.getByRole('alert').filter({ hasText: 'The file could not be made' });
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(/A report covers at most 92 days/);
    expect(await analyst.page.locator('body').textContent()).not.toMatch(/T\d\d:\d\d:\d\d\.\d{3}Z|VALIDATION_FAILED/);
    expect(downloads).toBe(0);
    expect(await accessibilityProblems(analyst.page)).toEqual([]);
    await analyst.screenshot('reports-download-refused');
    // the refusals are the answers expected (the browser logs a 400 for each)
    analyst.problems.splice(0, analyst.problems.length, ...analyst.problems.filter((p) => !p.includes('400')));
  });
});
