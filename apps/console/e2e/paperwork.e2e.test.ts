import { describe, expect, inject, it } from 'vitest';
import ExcelJS from 'exceljs';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
// the IDF as a real PDF with a text layer, as ops-api's own tests make it (test fixture, not product code)
import { idfPdf, sampleIdf } from '../../../services/ops-api/test/fixtures/idf-documents';
import { browserPeople } from './support/people';
import type { Person } from './support/session';

describe.skipIf(!inject('chromium'))('company staff and the association at the console', () => {
  const people = browserPeople();
  const open = (who: keyof typeof DEMO_ACCOUNTS): Promise<Person> => people.open(DEMO_ACCOUNTS[who]);

  it('company: a shipment takes an allowed move, and a move the shipment no longer allows is refused', async () => {
    const company = await open('company');
    await company.visit('/shipments');
    await company.screenshot('shipments');
    // the demo's booked shipment, open twice: the second page still offers the moves from "booked"
    await company.page.getByRole('row').filter({ hasText: 'Booked' }).getByRole('link').first().click();
    // the list page is settled too: wait for the detail's address before copying it (CI once opened
    // the second page on the list, which has no moves)
    await company.page.waitForURL(/\/shipments\/\d+$/);
    await company.settled();
    const url = company.page.url();
    const stale = await company.context.newPage();
    await stale.goto(url);
    const staleMoves = stale.getByRole('group', { name: 'Status moves' });
    await staleMoves.getByRole('button', { name: 'Depart (in transit)' }).waitFor();

    const moves = company.page.getByRole('group', { name: 'Status moves' });
    await moves.getByRole('button', { name: 'Depart (in transit)' }).click();
    await company.page.locator('.screen-head').getByText('In transit').waitFor();
    await moves.getByRole('button', { name: 'Arrived at border' }).waitFor();
    await company.screenshot('shipment-detail');

    await staleMoves.getByRole('button', { name: 'Depart (in transit)' }).click();
    await expect.poll(() => stale.getByRole('alert').textContent()).toContain('Moving to “In transit” was refused');
    company.problems.splice(0, company.problems.length, ...company.problems.filter((p) => !p.includes('409'))); // the refusal is the answer expected
    await stale.close();
  });

  it('company: an uploaded IDF PDF shows its extracted fields and line items', async () => {
    const company = await open('company');
    await company.visit('/cargo');
    await company.screenshot('cargo');
    const idfNumber = `26NBOIM${String(Date.now()).slice(-9)}`;
    const pdf = await idfPdf(sampleIdf({ idfNumber, importerName: 'Pwani Freight Movers Ltd', importerPin: 'P051234567X' }));
    const form = company.page.getByRole('form', { name: 'Read an IDF' });
    await form.getByLabel('IDF file').setInputFiles({ name: 'idf.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
    await form.getByRole('button', { name: 'Upload and read' }).click();
    await company.page.waitForURL(/\/cargo\/\d+$/);
    await company.settled();
    await expect.poll(() => company.page.getByTestId('field-idfNumber').textContent()).toContain(idfNumber);
    await expect.poll(() => company.page.getByTestId('field-importerName').textContent()).toContain('Pwani Freight Movers Ltd');
    const items = company.page.getByRole('table', { name: 'Line items' });
    await items.getByText('8708.30.00').waitFor();
    await items.getByText('Radial tyres for lorries').waitFor();
    await company.screenshot('cargo-review');

    // a packing list attached to the cargo: without a file the form says so before sending; with one it is listed
    const docs = company.page.getByRole('region', { name: 'Documents' });
    const attach = docs.getByRole('form', { name: 'Upload' });
    await attach.getByRole('button', { name: 'Upload' }).click();
    await attach.getByText('Choose a file to upload.').waitFor();
    expect(await attach.getByLabel('File').getAttribute('aria-invalid')).toBe('true');
    await attach.getByLabel('Kind').selectOption({ label: 'Packing list' });
    await attach
      .getByLabel('File')
      .setInputFiles({ name: 'packing.csv', mimeType: 'text/csv', buffer: Buffer.from('item,quantity\nRadial tyres,12\n') });
    await attach.getByRole('button', { name: 'Upload' }).click();
    await docs.getByRole('link', { name: 'packing.csv' }).or(docs.getByText('packing.csv')).first().waitFor();
    await docs.locator('li', { hasText: 'packing.csv' }).getByText('Packing list').waitFor();
    // the form is empty again for the next file
    expect(await attach.getByLabel('File').inputValue()).toBe('');
  });

  it('officer approves a waiting certificate, and the company finds the decision in its inbox', async () => {
    const officer = await open('officer');
    await officer.visit('/approvals');
    const row = officer.page.getByRole('table', { name: 'Approval queue' }).getByRole('row').nth(1);
    const number = (await row.getByRole('button').first().textContent())!.trim();
    await officer.screenshot('approvals');
    await row.getByRole('button', { name: 'Approve' }).click();
    await officer.page.getByRole('button', { name: number, exact: true }).waitFor({ state: 'detached' });

    const company = await open('company');
    await company.visit('/inbox');
    await company.page
      .getByTestId('notification')
      .filter({ hasText: `Certificate ${number} approved` })
      .waitFor();
    await company.screenshot('inbox');
    await company.visit('/certificates');
    await company.page.getByText(number).first().waitFor();
    await company.screenshot('certificates');
  });

  it('analyst runs a report and downloads it as xlsx that opens', async () => {
    const analyst = await open('analyst');
    await analyst.visit('/reports');
    const form = analyst.page.getByRole('form', { name: 'Reports' });
    await form.getByLabel('Report').selectOption({ label: 'Summary' });
    // the device picker: a search, then every device it shows chosen at once
    const devices = form.getByRole('group', { name: 'Devices', exact: true });
    await devices.getByRole('checkbox').nth(2).waitFor();
    await form.getByRole('searchbox', { name: 'Search devices' }).fill('Truck 0');
    await form.getByRole('button', { name: /^Select (all \d+|the 1) shown$/ }).click();
    await analyst.page.getByText(/^[1-9]\d* of \d+ devices and 0 groups chosen$/).waitFor();
    expect(await devices.getByRole('checkbox', { checked: true }).count()).toBeGreaterThan(0);
    await form.getByRole('button', { name: 'Show report' }).click();
    await analyst.page.getByText(/rows? in .* s\./).waitFor();
    await analyst.screenshot('reports');

    const [download] = await Promise.all([
      analyst.page.waitForEvent('download'),
      form.getByRole('link', { name: 'Download Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBeGreaterThanOrEqual(2); // a header and a row per device
    expect(sheet.getRow(1).values).toEqual(expect.arrayContaining([expect.stringMatching(/device/i)]));
  });
});
