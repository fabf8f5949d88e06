import type { CompanyRow } from '../db/schema';

type Seed = Pick<CompanyRow, 'id' | 'name' | 'country' | 'kind' | 'registrationNumber' | 'taxPin'>;

/**
 * Companies present from the first start (fictional names; identifiers in the Kenyan KRA PIN and
 * Tanzanian TIN shapes). Ids 101 and 202 are the companies of the test identities.
 */
export const seedCompanies: Seed[] = [
  {
    id: 101,
    name: 'Pwani Freight Movers Ltd',
    country: 'KE',
    kind: 'transporter',
    registrationNumber: 'PVT-AB1CD2EF',
    taxPin: 'P051234567X',
  },
  {
    id: 102,
    name: 'Kilindini Clearing & Forwarding Ltd',
    country: 'KE',
    kind: 'clearing_agent',
    registrationNumber: 'PVT-GH3IJ4KL',
    taxPin: 'P052345678Y',
  },
  { id: 103, name: 'Athi River Importers Ltd', country: 'KE', kind: 'shipper', registrationNumber: 'PVT-MN5OP6QR', taxPin: 'P053456789Z' },
  {
    id: 202,
    name: 'Msasani Corridor Logistics Ltd',
    country: 'TZ',
    kind: 'transporter',
    registrationNumber: '145678',
    taxPin: '123456789',
  },
  {
    id: 203,
    name: 'Kurasini Customs Agency Ltd',
    country: 'TZ',
    kind: 'clearing_agent',
    registrationNumber: '156789',
    taxPin: '234567891',
  },
  {
    id: 301,
    name: 'Northern Corridor Transporters Association',
    country: 'KE',
    kind: 'association',
    registrationNumber: null,
    taxPin: null,
  },
  {
    id: 302,
    name: 'Central Corridor Truck Owners Association',
    country: 'TZ',
    kind: 'association',
    registrationNumber: null,
    taxPin: null,
  },
];
