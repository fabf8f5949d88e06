import { describe, expect, inject, it } from 'vitest';
import { DEMO_ACCOUNTS } from '@corridor/tools/stack/demo/accounts';
// the IDF as a real PDF with a text layer, as ops-api's own tests make it (test fixture, not product code)
import { idfPdf, sampleIdf } from '../../../services/ops-api/test/fixtures/idf-documents';
import { browserPeople } from './support/people';

/** Company staff correct what the IDF reader got wrong before they finalize the cargo. */
describe.skipIf(!inject('chromium'))('company staff correct an IDF', () => {
  const people = browserPeople();

  it('company: sees the failed checks beside the fields, corrects a field and a line, and finalizes (at tablet width)', async () => {
    const company = await people.open(DEMO_ACCOUNTS.company);
    const { page } = company;
    await page.setViewportSize({ width: 800, height: 1100 });
    await company.visit('/cargo');
    const idfNumber = `26NBOIM${String(Date.now()).slice(-9)}`;
    const sample = sampleIdf({ idfNumber, importerPin: 'NOTAPIN1' });
    // the first line's HS code misread: a letter O for the zero
    sample.items[0] = { ...sample.items[0]!, hsCode: '87O8.30.00' };
    const upload = page.getByRole('form', { name: 'Read an IDF' });
    await upload
      .getByLabel('IDF file')
      .setInputFiles({ name: 'idf.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await idfPdf(sample)) });
    await upload.getByRole('button', { name: 'Upload and read' }).click();
    await page.waitForURL(/\/cargo\/\d+$/);
    await company.settled();
    const cargoUrl = new URL(page.url()).pathname;

    // the review: each field beside its checks; the PIN and the line items failed theirs
    const pin = page.getByTestId('field-importerPin');
    await pin.getByText('Invalid').waitFor();
    await pin.getByText(/neither a KRA PIN/).waitFor();
    await page
      .getByTestId('field-lineItems')
      .getByText(/HS code "87O8.30.00"/)
      .waitFor();
    await page.getByText('Some checks failed: see the highlighted rows.').waitFor();
    const finalize = page.getByRole('button', { name: 'Finalize (validate)' });
    expect(await finalize.isDisabled(), 'finalizing waits for the checks').toBe(true);
    await company.screenshot('cargo-review-issues');

    // correct the PIN in place: the issue goes away
    await pin.getByRole('button', { name: 'Correct Importer PIN' }).click();
    const pinForm = page.getByRole('form', { name: 'Correct Importer PIN' });
    // checked by the contract before anything is sent: left empty, the field says so and nothing goes out
    const writes: string[] = [];
    page.on('request', (r) => void (r.method() !== 'GET' && r.url().includes('/api/cargo/') && writes.push(r.url())));
    await pinForm.getByLabel('Importer PIN').fill('');
    await pinForm.getByRole('button', { name: 'Save' }).click();
    await pinForm.getByText('Fill this in.').waitFor();
    expect(await pinForm.getByLabel('Importer PIN').getAttribute('aria-invalid')).toBe('true');
    expect(writes).toEqual([]);
    await pinForm.getByLabel('Importer PIN').fill('P051234567X');
    await pinForm.getByRole('button', { name: 'Save' }).click();
    await pin.getByText('Valid', { exact: true }).waitFor();
    await pin.getByText('P051234567X').waitFor();
    expect(await pin.getByText(/neither a KRA PIN/).count()).toBe(0);

    // correct the misread HS code among the line items
    await page.getByRole('button', { name: 'Correct line items' }).click();
    const lines = page.getByRole('form', { name: 'Correct line items' });
    await lines.getByLabel('Line 1 HS code').fill('8708.30.00');
    // a quantity that is not a number is refused under its cell before sending
    const quantity = lines.getByLabel('Line 1 Quantity');
    const typed = await quantity.inputValue();
    await quantity.fill('twelve');
    await lines.getByRole('button', { name: 'Save' }).click();
    await lines.getByText('Enter a number.').waitFor();
    expect(await quantity.getAttribute('aria-invalid')).toBe('true');
    await quantity.fill(typed);
    await company.screenshot('cargo-correcting-lines');
    // the line editor's inputs scroll inside the table's own box, not the page
    expect(await company.overflow(), 'editing lines at tablet width').toMatchObject({ contentScrollsSideways: false });
    await lines.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Every check passed.').waitFor();
    expect(await page.getByTestId('field-lineItems').getByText(/87O8/).count()).toBe(0);
    expect(await company.overflow()).toMatchObject({ contentScrollsSideways: false });

    // saved on the server: a fresh load shows the corrected values; then finalize
    await company.visit(cargoUrl);
    await pin.getByText('P051234567X').waitFor();
    await page.getByRole('cell', { name: '8708.30.00' }).waitFor();
    await finalize.click();
    await page.locator('.screen-head').getByText('Validated').waitFor();
    // a validated cargo is no longer corrected
    expect(await page.getByRole('button', { name: /^Correct/ }).count()).toBe(0);
    await company.screenshot('cargo-corrected-validated');
    const { documentWidth, windowWidth } = await company.overflow();
    expect(documentWidth).toBeLessThanOrEqual(windowWidth);
  });
});
