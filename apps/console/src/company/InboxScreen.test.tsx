import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { Notification } from '@corridor/contracts/notifications';
import type { User } from '@corridor/contracts/users';
import { i18n } from '../i18n/i18n';
import { apiError, get, renderAt, serveApi } from '../test/api-stub';
import InboxScreen from './InboxScreen';

/**
 * The inbox words each notice from its type and parameters in the reader's language, with the
 * names ops-api stored (disciplinary.test.ts proves it stores them), not the English it wrote.
 * The answers vary: notices, none, the server down.
 */
const COMPANY_USER = {
  id: 40,
  name: 'Amani',
  email: 'amani@pwani.test',
  roles: ['company_user'],
  companyId: 101,
  disabled: false,
  readonly: false,
  attributes: {},
} as unknown as User;
const notice = (id: number, n: Partial<Notification>): Notification => ({
  id,
  type: 'announcement',
  title: 'Hello',
  message: 'Hello all',
  entityType: 'announcement',
  entityId: String(id),
  companyId: 101,
  attributes: {},
  createdAt: '2026-11-28T08:00:00.000Z',
  readAt: null,
  ...n,
});
const sanction = notice(1, {
  type: 'sanctionRecorded',
  title: 'Sanction recorded: fine',
  message: 'company 101: Late deliveries after warnings',
  entityType: 'disciplinary_record',
  attributes: {
    sanctionType: 'fine',
    subjectType: 'company',
    subjectRef: '101',
    subjectName: 'Pwani Freight Movers Ltd',
    companyName: 'Pwani Freight Movers Ltd',
    reason: 'Late deliveries after warnings',
  },
});
const rejected = notice(2, {
  type: 'certificateRejected',
  title: 'Certificate SUC-7 rejected',
  message: 'Reason: Stamp missing',
  entityType: 'single_use_certificate',
  attributes: { number: 'SUC-7', status: 'rejected', cargoId: 3, reason: 'Stamp missing' },
});
// written before notices kept their parameters: shown as stored
const old = notice(3, { type: 'complaintFiled', title: 'Complaint #4 filed', message: 'late delivery: Truck late' });
const page = (items: Notification[]) => ({
  items,
  total: items.length,
  unreadCount: items.filter((n) => !n.readAt).length,
  limit: 20,
  offset: 0,
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('inbox', () => {
  it("words a sanction notice in Swahili with the company's name, not its id", async () => {
    await i18n.changeLanguage('sw');
    serveApi(get('/api/inbox', page([sanction, rejected, old])));
    renderAt(<InboxScreen />, { path: '/inbox', user: COMPANY_USER });
    expect(await screen.findByText('Adhabu imerekodiwa: Faini')).toBeTruthy();
    expect(screen.getByText('Pwani Freight Movers Ltd: Late deliveries after warnings')).toBeTruthy();
    expect(screen.getByText('Cheti SUC-7 kimekataliwa')).toBeTruthy();
    expect(screen.getByText('Sababu: Stamp missing')).toBeTruthy();
    expect(screen.getByText('Complaint #4 filed')).toBeTruthy();
    expect(screen.queryByText(/company 101/)).toBeNull();
  });

  it('in English, the same notices in English', async () => {
    serveApi(get('/api/inbox', page([sanction])));
    renderAt(<InboxScreen />, { path: '/inbox', user: COMPANY_USER });
    expect(await screen.findByText('Sanction recorded: Fine')).toBeTruthy();
  });

  it('says when there is nothing, and when the server is down', async () => {
    serveApi(get('/api/inbox', page([])));
    const empty = renderAt(<InboxScreen />, { path: '/inbox', user: COMPANY_USER });
    expect(await screen.findByText('No notifications yet')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'postgres is down'));
    renderAt(<InboxScreen />, { path: '/inbox', user: COMPANY_USER });
    expect(await screen.findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });
});
