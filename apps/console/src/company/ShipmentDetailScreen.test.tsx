import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, noteAskedFirst, refuse, saidOnce, saidOnceInEnglishAndSwahili } from '../test/contract-api';
import { COMPANY_USER, page, PWANI, shipment } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import ShipmentDetailScreen from './ShipmentDetailScreen';
import { shipmentEndpoints } from './shipments';

/**
 * One shipment against contract-shaped answers: its facts and the moves the server allows; a
 * cancellation that needs its reason before anything is sent; a move that loses a race (409) said
 * once with the moves allowed now, and the shipment re-read (issue 26: the tab kept its old
 * status); a shipment that is not there.
 */
const companies = answer(companiesList, page([PWANI], 1000));
const open = () => renderAt(<ShipmentDetailScreen />, { path: '/shipments/9', route: '/shipments/:id', user: COMPANY_USER });
const moves = () => screen.getByRole('group', { name: 'Status moves' });

describe('shipment detail', () => {
  it('shows the shipment, its route, truck, driver and the moves the server allows', async () => {
    serveApi(
      companies,
      answer(shipmentEndpoints.allowed, { current: 'booked', statusBeforeHold: null, allowed: ['in_transit', 'cancelled'] }),
      answer(shipmentEndpoints.get, shipment(9, { notes: 'Fragile: glassware' })),
    );
    open();
    expect(await screen.findByRole('heading', { name: 'Shipment PWN-9' })).toBeTruthy();
    expect(screen.getByText('Mombasa (KE) → Kampala (UG) · Northern Corridor')).toBeTruthy();
    expect(screen.getByText('Juma Omari · +254700000001')).toBeTruthy();
    expect(screen.getByText('Fragile: glassware')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Pwani Freight Movers Ltd')).toBeTruthy());
    await waitFor(() =>
      expect(
        within(moves())
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['Depart (in transit)', 'Cancel shipment']),
    );
  });

  it('says when no move is open', async () => {
    serveApi(
      companies,
      answer(shipmentEndpoints.allowed, { current: 'delivered', statusBeforeHold: null, allowed: [] }),
      answer(shipmentEndpoints.get, shipment(9, { status: 'delivered' })),
    );
    open();
    expect(await screen.findByText('No moves are open to you from this state.')).toBeTruthy();
  });

  it('a cancellation needs its reason before anything is sent', async () => {
    const served = serveApi(
      companies,
      answer(shipmentEndpoints.allowed, { current: 'booked', statusBeforeHold: null, allowed: ['in_transit', 'cancelled'] }),
      answer(shipmentEndpoints.get, shipment(9)),
    );
    open();
    await noteAskedFirst(served, { button: 'Cancel shipment', method: 'PATCH' });
  });

  it('a move that lost a race is said once with the moves allowed now, and the shipment is read again', async () => {
    let reads = 0;
    let asked = 0;
    serveApi(
      companies,
      answer(shipmentEndpoints.allowed, () =>
        ++asked === 1
          ? { current: 'booked', statusBeforeHold: null, allowed: ['in_transit', 'cancelled'] }
          : { current: 'on_hold', statusBeforeHold: 'booked', allowed: ['booked'] },
      ),
      answer(shipmentEndpoints.get, () => (++reads === 1 ? shipment(9) : shipment(9, { status: 'on_hold', statusBeforeHold: 'booked' }))),
      refuse(shipmentEndpoints.changeStatus, 'INVALID_TRANSITION', { current: 'on_hold', allowed: ['booked'] }),
    );
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Depart (in transit)' }));
    await saidOnce('Moving to “In transit” was refused: the shipment has changed meanwhile. Allowed now: Booked.');
    // the status shown is the one read after the refusal, not the one the tab had
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Shipment PWN-9' }).nextElementSibling?.textContent).toBe('On hold'));
  });

  it('a shipment that is not there (404) is said once, in English and in Swahili', async () => {
    serveApi(companies, refuse(shipmentEndpoints.allowed, 'NOT_FOUND'), refuse(shipmentEndpoints.get, 'NOT_FOUND'));
    await saidOnceInEnglishAndSwahili(open, 'errors.notFound');
  });

  it('a progress update is checked by the contract before sending; sent, its place and note go as typed; a refusal is said once', async () => {
    const served = serveApi(
      companies,
      answer(shipmentEndpoints.allowed, { current: 'in_transit', statusBeforeHold: null, allowed: ['at_border'] }),
      answer(shipmentEndpoints.get, shipment(9, { status: 'in_transit' })),
      refuse(shipmentEndpoints.addProgress, 'INVALID_TRANSITION', { current: 'delivered', allowed: [] }),
    );
    open();
    const form = await screen.findByRole('form', { name: 'Add progress update' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add progress update' }));
    const place = within(form).getByLabelText(/^Place/);
    await waitFor(() => expect(place.getAttribute('aria-invalid')).toBe('true'));
    expect(served.asked.filter((a) => a.startsWith('POST'))).toEqual([]);
    fireEvent.change(place, { target: { value: 'Malaba OSBP' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add progress update' }));
    await saidOnce('This cannot be done now: it is Delivered.');
    const [body] = served.sent.get('POST /api/shipments/9/progress-updates') as [Record<string, unknown>];
    expect(body).toMatchObject({ kind: 'checkpoint', location: { name: 'Malaba OSBP' }, note: null });
  });
});
