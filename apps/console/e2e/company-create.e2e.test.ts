import { describe, inject, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
// the IDF as a real PDF with a text layer, as ops-api's own tests make it (test fixture, not product code)
import { idfPdf, sampleIdf } from '../../../services/ops-api/test/fixtures/idf-documents';
import { browserPeople } from './support/people';

/** Company staff make their own data: cargo from an uploaded IDF, a shipment carrying it, a certificate applied for. */
describe.skipIf(!inject('chromium'))('company staff create shipments and certificates', () => {
  const people = browserPeople();

  it('company: validates its own cargo, creates a shipment carrying it, and applies for its certificate', async () => {
    const company = await people.open(DEMO_ACCOUNTS.company);
    const { page } = company;
    // cargo of its own: an IDF read and finalized
    await company.visit('/cargo');
    const idfNumber = `26NBOIM${String(Date.now()).slice(-9)}`;
    const pdf = await idfPdf(sampleIdf({ idfNumber, importerName: 'Pwani Freight Movers Ltd', importerPin: 'P051234567X' }));
    const upload = page.getByRole('form', { name: 'Read an IDF' });
    await upload.getByLabel('IDF file').setInputFiles({ name: 'idf.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
    await upload.getByRole('button', { name: 'Upload and read' }).click();
    await page.waitForURL(/\/cargo\/\d+$/);
    await company.settled();
    await page.getByRole('button', { name: 'Finalize (validate)' }).click();
    await page.locator('.screen-head').getByText('Validated').waitFor();

    // a shipment carrying it
    await company.visit('/shipments/new');
    const form = page.getByRole('form', { name: 'New shipment' });
    const reference = `E2E/${Date.now()}`;
    await form.getByLabel('Reference').fill(reference);
    await form.getByLabel('Origin', { exact: true }).fill('Mombasa');
    await form.getByLabel('Destination', { exact: true }).fill('Kampala');
    await form.getByLabel('Cargo (IDF)').selectOption({ label: idfNumber });
    await company.screenshot('shipment-new');
    await form.getByRole('button', { name: 'Create shipment' }).click();
    await page.waitForURL(/\/shipments\/\d+$/);
    await company.settled();
    await page.locator('.screen-head').getByText(reference).waitFor();
    // its cargo named as the company knows it (IDF number, goods, status), linking to the cargo
    const cargo = page.locator('.facts').getByRole('link', { name: idfNumber });
    await cargo.waitFor();
    await page.locator('.facts').getByText('Brake pads and linings and 2 more lines').waitFor();
    await company.screenshot('shipment-created');
    await cargo.click();
    await page.waitForURL(/\/cargo\/\d+$/);
    await page.locator('.screen-head').getByText(idfNumber).waitFor();

    // a certificate applied for that cargo
    await company.visit('/certificates');
    const apply = page.getByRole('form', { name: 'Apply for a certificate' });
    const option = apply.getByLabel('Validated cargo').locator('option', { hasText: idfNumber });
    await apply.getByLabel('Validated cargo').selectOption((await option.getAttribute('value'))!);
    await apply.getByRole('button', { name: 'Apply' }).click();
    const row = page.getByRole('table', { name: 'Certificates' }).getByRole('row').filter({ hasText: idfNumber });
    await row.waitFor();
    // a new application waits for its payment (status Applied)
    await row.getByText('Applied', { exact: true }).waitFor();
    await company.screenshot('certificate-applied');
  });
});
