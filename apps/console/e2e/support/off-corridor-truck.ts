import { randomInt } from 'node:crypto';
import { eventually } from '@corridor/platform/testing/eventually';
import { osmandUrl } from '@corridor/tools/sim/osmand-client';
import type { Person } from './session';

const CONSOLE = { 'x-requested-with': 'corridor-console' };

/** A truck of a test's own in the dispatcher's company (the demo's company 101), registered by an administrator. */
export interface OwnTruck {
  deviceId: number;
  name: string;
  uniqueId: string;
}

/** A truck of a test's own, its journey and the off-corridor flag its fixes opened. */
export interface OffCorridorTruck extends OwnTruck {
  journeyId: number;
  flagId: number;
}

/** Registers a truck named `${prefix} NNNN` (four digits of its unique id) in company 101. */
export async function registerOwnTruck(admin: Person, prefix: string): Promise<OwnTruck> {
  const uniqueId = `87${String(randomInt(10 ** 9, 10 ** 10))}`;
  const name = `${prefix} ${uniqueId.slice(-4)}`;
  const created = await admin.context.request.post(`${admin.baseUrl}/api/devices`, {
    headers: CONSOLE,
    data: { name, uniqueId, companyId: 101, category: 'truck' },
  });
  if (created.status() !== 200) throw new Error(`registering ${name}: ${created.status()} ${await created.text()}`);
  return { deviceId: ((await created.json()) as { id: number }).id, name, uniqueId };
}

/**
 * The truck reports over OsmAnd from `near`: `fixes` fixes 50 s apart ending now (30: the last 24
 * minutes), moving north-west at 40 km/h (timestamps in the past, as a tracker sending its buffered
 * fixes does). The span is for the replay, which plays 60 times faster than the clock: a track of
 * a few minutes played to its end before a test under load could pause it (one run did). On a
 * journey of the demo's routes far from `near`, three of them and 20 s beyond the corridor open
 * its off-corridor flag (the demo routes' thresholds, tools/stack/demo/routes.ts).
 */
export async function reportFrom(osmand: string, truck: OwnTruck, near: { lat: number; lon: number }, fixes = 30): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < fixes; i++) {
    const fix = {
      deviceId: truck.uniqueId,
      time: new Date(now - (fixes - 1 - i) * 50_000),
      lat: near.lat + i * 0.0035,
      lon: near.lon - i * 0.0035,
      speedKph: 40,
      courseDeg: 315,
      altitudeM: 560,
      accuracyM: 5,
      batteryPct: 80,
    };
    const sent = await fetch(osmandUrl(osmand, fix), { method: 'POST' });
    if (sent.status !== 200) throw new Error(`${truck.name}'s fix ${i}: HTTP ${sent.status}`);
  }
}

/**
 * A truck of the test's own with a flag of its own, so that a test needing *a* flag does not wait
 * for the demo's timeline (Truck 01 leaves its corridor minutes after the stack starts): `admin`
 * registers the truck, `dispatcher` declares its journey on the demo's Central Corridor route, and
 * the truck reports from `near` (near Voi, hundreds of kilometres off that corridor: reportFrom).
 * Resolves once the journey service has opened the flag.
 */
export async function offCorridorTruck(
  admin: Person,
  dispatcher: Person,
  osmand: string,
  { near, fixes = 30 }: { near: { lat: number; lon: number }; fixes?: number },
): Promise<OffCorridorTruck> {
  const truck = await registerOwnTruck(admin, 'Replay truck');
  const routes = (await (
    await dispatcher.context.request.get(`${dispatcher.baseUrl}/api/routes?limit=1000`, { headers: CONSOLE })
  ).json()) as { id: number; code: string | null }[];
  const route = routes.find((r) => r.code === 'demo-central-forward');
  if (!route) throw new Error(`no demo Central Corridor route among ${routes.map((r) => r.code).join(', ')}`);
  const declared = await dispatcher.context.request.post(`${dispatcher.baseUrl}/api/journey`, {
    headers: CONSOLE,
    data: { deviceId: truck.deviceId, routeId: route.id, truckPlate: 'KDE 405X' },
  });
  if (declared.status() !== 200) throw new Error(`declaring ${truck.name}'s journey: ${declared.status()} ${await declared.text()}`);
  const journeyId = ((await declared.json()) as { id: number }).id;

  await reportFrom(osmand, truck, near, fixes);
  const flagId = await eventually(
    `${truck.name}'s off-corridor flag on journey ${journeyId}`,
    async () => {
      const detail = (await (
        await dispatcher.context.request.get(`${dispatcher.baseUrl}/api/journey/${journeyId}`, { headers: CONSOLE })
      ).json()) as { flags?: { id: number; type: string }[] };
      return detail.flags?.find((f) => f.type === 'offCorridor')?.id;
    },
    { ceilingMs: 60_000, everyMs: 500 },
  );
  return { ...truck, journeyId, flagId };
}
