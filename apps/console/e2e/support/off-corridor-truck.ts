import { randomInt } from 'node:crypto';
import { eventually } from '@corridor/platform/testing/eventually';
import { osmandUrl } from '@corridor/tools/sim/osmand-client';
import type { Person } from './session';

const CONSOLE = { 'x-requested-with': 'corridor-console' };

/** A truck of a test's own, its journey and the off-corridor flag its fixes opened. */
export interface OffCorridorTruck {
  deviceId: number;
  name: string;
  journeyId: number;
  flagId: number;
}

/**
 * A truck of the test's own with a flag of its own, so that a test needing *a* flag does not wait
 * for the demo's timeline (Truck 01 leaves its corridor minutes after the stack starts): `admin`
 * registers the truck in the dispatcher's company, `dispatcher` declares its journey on the demo's
 * Central Corridor route (demo thresholds: 3 fixes and 20 s beyond the corridor open the flag), and
 * the truck reports over OsmAnd from near Voi, hundreds of kilometres off that corridor: `fixes`
 * fixes 10 s apart ending now, moving north-west at 40 km/h (timestamps in the past, as a tracker
 * sending its buffered fixes does). Resolves once the journey service has opened the flag.
 */
export async function offCorridorTruck(
  admin: Person,
  dispatcher: Person,
  osmand: string,
  { near, fixes = 30 }: { near: { lat: number; lon: number }; fixes?: number },
): Promise<OffCorridorTruck> {
  const uniqueId = `87${String(randomInt(10 ** 9, 10 ** 10))}`;
  const name = `Replay truck ${uniqueId.slice(-4)}`;
  const created = await admin.context.request.post(`${admin.baseUrl}/api/devices`, {
    headers: CONSOLE,
    data: { name, uniqueId, companyId: 101, category: 'truck' },
  });
  if (created.status() !== 200) throw new Error(`registering ${name}: ${created.status()} ${await created.text()}`);
  const deviceId = ((await created.json()) as { id: number }).id;

  const routes = (await (
    await dispatcher.context.request.get(`${dispatcher.baseUrl}/api/routes?limit=1000`, { headers: CONSOLE })
  ).json()) as { id: number; code: string | null }[];
  const route = routes.find((r) => r.code === 'demo-central-forward');
  if (!route) throw new Error(`no demo Central Corridor route among ${routes.map((r) => r.code).join(', ')}`);
  const declared = await dispatcher.context.request.post(`${dispatcher.baseUrl}/api/journey`, {
    headers: CONSOLE,
    data: { deviceId, routeId: route.id, truckPlate: 'KDE 405X' },
  });
  if (declared.status() !== 200) throw new Error(`declaring ${name}'s journey: ${declared.status()} ${await declared.text()}`);
  const journeyId = ((await declared.json()) as { id: number }).id;

  const now = Date.now();
  for (let i = 0; i < fixes; i++) {
    const fix = {
      deviceId: uniqueId,
      time: new Date(now - (fixes - 1 - i) * 10_000),
      lat: near.lat + i * 0.0007,
      lon: near.lon - i * 0.0007,
      speedKph: 40,
      courseDeg: 315,
      altitudeM: 560,
      accuracyM: 5,
      batteryPct: 80,
    };
    const sent = await fetch(osmandUrl(osmand, fix), { method: 'POST' });
    if (sent.status !== 200) throw new Error(`${name}'s fix ${i}: HTTP ${sent.status}`);
  }

  const flagId = await eventually(
    `${name}'s off-corridor flag on journey ${journeyId}`,
    async () => {
      const detail = (await (
        await dispatcher.context.request.get(`${dispatcher.baseUrl}/api/journey/${journeyId}`, { headers: CONSOLE })
      ).json()) as { flags?: { id: number; type: string }[] };
      return detail.flags?.find((f) => f.type === 'offCorridor')?.id;
    },
    { ceilingMs: 60_000, everyMs: 500 },
  );
  return { deviceId, name, journeyId, flagId };
}
