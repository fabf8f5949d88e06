import { devicesEndpoints, journeysEndpoints, type Device, type Journey, type Route } from '@corridor/contracts';
import type { TruckPlan } from '../../sim/truck';
import type { DemoClient } from './client';

const devicesList = devicesEndpoints.find((e) => e.id === 'devices.list')!;
const byId = (id: string) => journeysEndpoints.find((e) => e.id === id)!;
const [create, active, flagged] = [byId('journeys.create'), byId('journeys.active'), byId('journeys.flagged')];

const letter = (n: number): string => String.fromCharCode(65 + (n % 26));
/** A plate in the country's format (KCA 123B in Kenya, T 123 ABC in Tanzania), stable per truck. */
const plate = (i: number, country: 'KE' | 'TZ'): string => {
  const digits = String(101 + ((i * 37) % 899));
  return country === 'KE' ? `KC${letter(i)} ${digits}${letter(i * 7)}` : `T ${digits} ${letter(i)}${letter(i * 3)}${letter(i * 5)}`;
};

/**
 * A journey for every simulated truck that has none planned or active: on the demo route of its
 * corridor in the direction it drives, already departed, due well after it can arrive (no late-ETA
 * noise). The first few carry shipment and cargo references. Returns the journeys created.
 */
export async function ensureDemoJourneys(dispatcher: DemoClient, plans: readonly TruckPlan[], routes: Map<string, Route>): Promise<number> {
  const devices = await dispatcher.call<Device[]>(devicesList, { query: { limit: 1000, uniqueId: plans.map((p) => p.deviceId) } });
  const byUnique = new Map(devices.map((d) => [d.uniqueId, d]));
  const busy = new Set<number>();
  for (const def of [active, flagged])
    for (const j of await dispatcher.call<Journey[]>(def, { query: { limit: 1000 } })) busy.add(j.deviceId);
  const now = Date.now();
  let created = 0;
  for (const [i, p] of plans.entries()) {
    const device = byUnique.get(p.deviceId);
    const route = routes.get(`${p.corridor.id}-${p.direction}`);
    if (!device || !route || busy.has(device.id)) continue;
    const hoursLeft = p.corridor.lengthKm / p.cruiseKph + p.corridor.expectedDurationHours;
    await dispatcher.call<Journey>(create, {
      body: {
        deviceId: device.id,
        routeId: route.id,
        companyId: device.companyId,
        truckPlate: plate(i, p.corridor.id === 'northern' ? 'KE' : 'TZ'),
        shipmentRef: i < 6 ? `PWN/${2026}/${String(1001 + i)}` : null,
        plannedDeparture: new Date(now - 10 * 60_000).toISOString(),
        plannedArrival: new Date(now + hoursLeft * 3600_000).toISOString(),
        attributes: { demo: true },
      },
    });
    created++;
  }
  return created;
}
