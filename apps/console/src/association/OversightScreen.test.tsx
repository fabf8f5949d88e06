import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { cargoEndpoints } from '../company/cargo';
import { certificateEndpoints } from '../company/certificates';
import { shipmentEndpoints } from '../company/shipments';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import { cargoItem, certificate, documentRecord, OFFICER, page, PWANI, shipmentItem } from '../test/fixtures';
import { documentsList } from '../ui/documents/documents';
import { companiesList } from '../ui/lookups';
import OversightScreen from './OversightScreen';

/**
 * The association's oversight of every company's records against contract-shaped answers: each
 * tab's rows with their links; nothing recorded yet (said as such, not as "nothing matches");
 * nothing matching a filter; a refusal said once, in words.
 */
const companies = answer(companiesList, page([PWANI], 1000));
const open = (kind: string) => renderAt(<OversightScreen />, { path: `/oversight/${kind}`, route: '/oversight/:kind', user: OFFICER });
const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!;

describe('oversight', () => {
  it("lists every company's shipments, cargo and certificates, each linking to its record", async () => {
    serveApi(
      companies,
      answer(shipmentEndpoints.listAdmin, page([shipmentItem(9)])),
      answer(cargoEndpoints.listAdmin, page([cargoItem(3, { extraction: { ...cargoItem(3).extraction, valid: false } })])),
      answer(certificateEndpoints.list, page([certificate(1, { status: 'approved', allowedActions: [] })])),
    );
    open('shipments');
    const shipment = await rowOf('PWN-9');
    expect(within(shipment).getByRole('link', { name: 'PWN-9' }).getAttribute('href')).toBe('/shipments/9');
    await waitFor(() => expect(shipment.textContent).toContain('Pwani Freight Movers Ltd'));
    expect(shipment.textContent).toContain('Mombasa → Kampala');
    expect(shipment.textContent).toContain('Booked');
    fireEvent.click(screen.getByRole('tab', { name: 'Cargo' }));
    const cargo = await rowOf('E26003');
    expect(cargo.textContent).toContain('Needs correction');
    expect(cargo.textContent).toContain('Submitted');
    fireEvent.click(screen.getByRole('tab', { name: 'Certificates' }));
    const cert = await rowOf('SUC-000001');
    expect(within(cert).getByRole('link', { name: 'SUC-000001' }).getAttribute('href')).toBe('/approvals?open=1');
    expect(within(cert).getByRole('link', { name: 'E26001' }).getAttribute('href')).toBe('/cargo/31');
    expect(cert.textContent).toContain('Approved');
  });

  it('says nothing is recorded yet when nothing is, and that nothing matches only under a filter', async () => {
    const served = serveApi(companies, answer(documentsList, page([])));
    open('documents');
    expect(await screen.findByText('Nothing recorded yet')).toBeTruthy();
    expect(screen.queryByText('Nothing matches')).toBeNull();
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'idf' } });
    expect(await screen.findByText('Nothing matches')).toBeTruthy();
    expect(screen.getByText('Clear the filters to see everything.')).toBeTruthy();
    expect(served.asked.some((a) => a.startsWith('GET /api/documents?') && a.includes('kind=idf'))).toBe(true);
  });

  it('lists documents with what they belong to; in Swahili the empty list reads in Swahili', async () => {
    serveApi(
      companies,
      answer(documentsList, page([documentRecord('8a1f6a62-0d3e-4c55-9d7e-3f0c8e4b2a10', { ownerType: 'company', ownerId: null })])),
    );
    const view = open('documents');
    const row = (await screen.findByRole('button', { name: 'bl-2231.pdf' })).closest('tr')!;
    expect(row.textContent).toContain('Bill of lading');
    expect(row.textContent).toContain('Company');
    view.unmount();
    serveApi(companies, answer(shipmentEndpoints.listAdmin, page([])));
    await i18n.changeLanguage('sw');
    open('shipments');
    expect(await screen.findByText(swahili('oversight.nothing'))).toBeTruthy();
  });

  it('a refusal is said once, in words', async () => {
    serveApi(companies, refuse(cargoEndpoints.listAdmin, 'UNAVAILABLE'));
    open('cargo');
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
  });
});
