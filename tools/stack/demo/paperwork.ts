import {
  cargoEndpoints,
  certificatesEndpoints,
  documentsEndpoints,
  shipmentsEndpoints,
  type Cargo,
  type Certificate,
  type DocumentWithLink,
  type IdfStructuredExport,
  type Shipment,
  type ShipmentStatus,
} from '@corridor/contracts';
import type { DemoClient } from './client';

const ep = <L extends readonly { id: string }[]>(list: L, id: string) => list.find((e) => e.id === id)! as L[number];
const upload = ep(documentsEndpoints, 'documents.upload');
const processIdf = ep(cargoEndpoints, 'cargo.processIdf');
const cargoList = ep(cargoEndpoints, 'cargo.listCompany');
const cargoStatus = ep(cargoEndpoints, 'cargo.changeStatus');
const apply = ep(certificatesEndpoints, 'certificates.apply');
const generate = ep(certificatesEndpoints, 'certificates.generate');
const approve = ep(certificatesEndpoints, 'certificates.approve');
const reject = ep(certificatesEndpoints, 'certificates.reject');
const shipmentList = ep(shipmentsEndpoints, 'shipments.listCompany');
const shipmentCreate = ep(shipmentsEndpoints, 'shipments.create');
const shipmentStatus = ep(shipmentsEndpoints, 'shipments.changeStatus');
const progress = ep(shipmentsEndpoints, 'shipments.addProgress');

/** An IDF as the structured export (JSON) the extraction reads; `badHs` puts a malformed HS code on the first line. */
function idf(n: number, opts: { badHs?: boolean } = {}): IdfStructuredExport {
  const items = [
    {
      hsCode: opts.badHs ? '87A8.30' : '8708.30.00',
      description: 'Brake pads and linings',
      quantity: 400 + n * 10,
      unit: 'PCS',
      value: 6000 + n * 150,
    },
    { hsCode: '4011.20.00', description: 'Radial tyres for lorries', quantity: 40 + n, unit: 'PCS', value: 8000 + n * 200 },
  ];
  return {
    idfNumber: `26NBOIM${String(910000 + n).padStart(9, '0')}`,
    importer: { name: 'Pwani Freight Movers Ltd', pin: 'P051234567X' },
    consignor: ['Guangzhou Auto Parts Co. Ltd', 'Jebel Ali Tyre Trading LLC', 'Mumbai Brake Works Pvt Ltd'][n % 3]!,
    countryOfOrigin: ['China', 'United Arab Emirates', 'India'][n % 3]!,
    portOfDischarge: 'Mombasa',
    invoice: { value: items.reduce((s, i) => s + i.value, 0), currency: 'USD' },
    items,
  };
}

async function cargoFrom(company: DemoClient, n: number, opts: { badHs?: boolean } = {}): Promise<Cargo> {
  const form = new FormData();
  form.append('kind', 'idf');
  form.append('file', new Blob([JSON.stringify(idf(n, opts))], { type: 'application/json' }), `IDF-${n}.json`);
  const doc = await company.call<DocumentWithLink>(upload, { form });
  return company.call<Cargo>(processIdf, { body: { documentId: doc.id } });
}

/** What the demo's certificates end as, one cargo each. */
const CERTIFICATES = ['approved', 'submitted', 'submitted', 'applied', 'rejected', 'submitted'] as const;

/**
 * Pwani Freight Movers' paperwork (idempotent: skipped when the company already has cargo):
 * cargo from IDF exports, validated or left with an issue to correct; certificates applied for,
 * paid (submitted, waiting in the officer's queue), approved and rejected; shipments in every
 * state from draft to delivered, with progress updates.
 */
export async function ensureDemoPaperwork(company: DemoClient, officer: DemoClient): Promise<boolean> {
  const existing = await company.call<{ total: number }>(cargoList, { query: { limit: 1 } });
  if (existing.total > 0) return false;

  // cargo: six validated (certificates), one validated without a certificate yet, one with an HS code to correct
  const validated: Cargo[] = [];
  for (let n = 1; n <= 7; n++) {
    const c = await cargoFrom(company, n);
    validated.push(await company.call<Cargo>(cargoStatus, { params: { cargoId: c.id }, body: { status: 'validated', reason: null } }));
  }
  await cargoFrom(company, 8, { badHs: true });

  for (const [i, end] of CERTIFICATES.entries()) {
    const cert = await company.call<Certificate>(apply, { body: { cargoId: validated[i]!.id } });
    if (end === 'applied') continue;
    if (end === 'rejected') {
      await officer.call(reject, {
        params: { id: cert.id },
        body: { reason: 'The invoice value does not match the commercial invoice attached.' },
      });
      continue;
    }
    await company.call(generate, {
      params: { id: cert.id },
      body: { paymentReference: `QK${String(7310000 + i)}X`, paymentMethod: 'mpesa' },
    });
    if (end === 'approved') await officer.call(approve, { params: { id: cert.id }, body: { note: 'Documents in order.' } });
  }

  // shipments along the corridor in each state
  const plan: { status: ShipmentStatus[]; to: string; border?: string }[] = [
    { status: [], to: 'Kampala' },
    { status: ['booked'], to: 'Kigali' },
    { status: ['booked', 'in_transit'], to: 'Kampala', border: 'Malaba' },
    { status: ['booked', 'in_transit', 'at_border'], to: 'Kampala', border: 'Malaba' },
    { status: ['booked', 'in_transit', 'delivered'], to: 'Nairobi' },
    { status: ['booked', 'in_transit', 'on_hold'], to: 'Kisumu' },
  ];
  const known = await company.call<{ total: number }>(shipmentList, { query: { limit: 1 } });
  if (known.total > 0) return true;
  const day = 24 * 3600_000;
  for (const [i, s] of plan.entries()) {
    const shipment = await company.call<Shipment>(shipmentCreate, {
      body: {
        reference: `PWN/2026/${String(1001 + i)}`,
        origin: { place: 'Mombasa', country: 'KE' },
        destination: { place: s.to, country: s.to === 'Kampala' ? 'UG' : s.to === 'Kigali' ? 'RW' : 'KE' },
        corridor: 'northern',
        borderCrossings: s.border ? [s.border] : [],
        truckPlate: `KC${String.fromCharCode(65 + i)} ${String(210 + i * 13)}K`,
        driver: {
          name: ['Otieno Ouma', 'Wanjiru Kamau', 'Hassan Mwinyi', 'Peter Kiprop', 'Mary Akinyi', 'Said Bakari'][i]!,
          phone: `+2547${String(10000000 + i * 1234567).slice(0, 8)}`,
          licenceNumber: null,
        },
        containerNumbers: i % 2 === 0 ? ['MSKU1234565'] : [],
        cargoIds: i < validated.length ? [validated[i]!.id] : [],
        plannedDeparture: new Date(Date.now() - (3 - i) * day).toISOString(),
        plannedArrival: new Date(Date.now() + (i + 2) * day).toISOString(),
        notes: null,
      },
    });
    for (const status of s.status) {
      await company.call(shipmentStatus, {
        params: { shipmentId: shipment.id },
        body: { status, reason: status === 'on_hold' ? "Awaiting the consignee's payment confirmation." : null },
      });
      if (status === 'in_transit') {
        await company.call(progress, {
          params: { shipmentId: shipment.id },
          body: {
            at: new Date(Date.now() - 3 * 3600_000).toISOString(),
            kind: 'checkpoint',
            location: { name: 'Mariakani weighbridge', latitude: -3.862, longitude: 39.474 },
            note: 'Weighed and cleared, 28.4 t.',
          },
        });
      }
    }
  }
  return true;
}
