import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import { COMPANY_USER, page, shipmentItem, userAs } from '../test/fixtures';
import ShipmentsScreen from './ShipmentsScreen';
import { shipmentEndpoints } from './shipments';

/**
 * The company's shipments against contract-shaped answers: the list with its route, truck and
 * state in words; a create link only for those the contract lets create; none yet; none matching;
 * a refusal said once, in words.
 */
const open = (user = COMPANY_USER) => renderAt(<ShipmentsScreen />, { path: '/shipments', user });

describe('shipments', () => {
  it('lists the shipments with their route, truck and state, and offers a new one to those who may create', async () => {
    serveApi(answer(shipmentEndpoints.listCompany, page([shipmentItem(9), shipmentItem(10, { status: 'in_transit', truckPlate: null })])));
    const view = open();
    const link = await screen.findByRole('link', { name: 'PWN-9' });
    expect(link.getAttribute('href')).toBe('/shipments/9');
    const row = link.closest('tr')!;
    expect(row.textContent).toContain('Mombasa → Kampala');
    expect(row.textContent).toContain('KCA 123A');
    expect(row.textContent).toContain('Booked');
    const other = screen.getByRole('link', { name: 'PWN-10' }).closest('tr')!;
    expect(other.textContent).toContain('In transit');
    expect(within(other).getAllByRole('cell')[2]!.textContent).toBe('—');
    expect(screen.getByRole('link', { name: 'New shipment' }).getAttribute('href')).toBe('/shipments/new');
    view.unmount();
    // a clearing agent reads shipments but the contract does not let it create one
    open(userAs(41, 'Agent', ['clearing_agent'], 101));
    await screen.findByRole('link', { name: 'PWN-9' });
    expect(screen.queryByRole('link', { name: 'New shipment' })).toBeNull();
  });

  it('says when there are none yet, and when none matches a filter', async () => {
    const served = serveApi(answer(shipmentEndpoints.listCompany, page([])));
    open();
    expect(await screen.findByText('No shipments yet')).toBeTruthy();
    expect(screen.getByText('Create a shipment to plan a consignment, then move it along as it travels.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'delivered' } });
    expect(await screen.findByText('No shipment matches')).toBeTruthy();
    expect(served.asked.some((a) => a.includes('status=delivered'))).toBe(true);
  });

  it('in Swahili, the empty list reads in Swahili', async () => {
    serveApi(answer(shipmentEndpoints.listCompany, page([])));
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('shipments.empty'))).toBeTruthy();
    expect(screen.getByText(swahili('shipments.emptyHint'))).toBeTruthy();
  });

  it('a refusal is said once, in words', async () => {
    serveApi(refuse(shipmentEndpoints.listCompany, 'UNAVAILABLE'));
    open();
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
  });
});
