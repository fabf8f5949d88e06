import type { Route } from '@corridor/contracts';
import { buildRouteIndex } from '@corridor/journey/corridor/route-index';
import { corridorRouteOf } from '@corridor/journey/routes/corridor-route';
import { gt06Codec } from '../sim/senders/device-codecs';
import { TcpDeviceSender } from '../sim/senders/tcp-device-sender';
import type { Fix } from '../sim/truck';

/**
 * The run's trucks: each a GT06 tracker on its own TCP connection, driving its journey along the
 * Northern Corridor at 72 km/h (600 m between fixes 30 s apart in fix time, whatever the wall
 * clock does). A detouring truck alternates 6 fixes on the line with 6 fixes 3 km beside it: the
 * off-corridor detector opens a flag on the 5th fix off (3 fixes and 2 minutes beyond width + 500
 * m, the defaults) and clears it on the first fix back. So what the journeys must flag is known
 * from the fixes alone.
 */
const FIX_INTERVAL_MS = 30_000;
export const CYCLE = 12;
const ON = 6;
const OFF_M = 3000;
const STEP_M = 600;

export const imeiOf = (i: number): string => `35971006${String(i).padStart(7, '0')}`;

/** Off-corridor openings and clearings `fixes` fixes of a detouring truck produce (see above). */
export function expectedFlagChanges(fixes: number): { opened: number; cleared: number } {
  let opened = 0;
  let cleared = 0;
  for (let n = 0; n < fixes; n++) {
    if (n % CYCLE === ON + 4) opened++;
    if (n % CYCLE === 0 && n > 0) cleared++;
  }
  return { opened, cleared };
}

export interface Truck {
  index: number;
  uniqueId: string;
  deviceId: number;
  journeyId: number | null;
  detours: boolean;
  sender: TcpDeviceSender;
  /** Fix times (ms) acknowledged by the platform. */
  acked: number[];
  /** When each fix was handed to the sender, by fix time (performance.now()). */
  sentAt: Map<number, number>;
  /** Index of the ingest instance the tracker first connected to. */
  home: number;
}

export function routeGeometry(route: Route) {
  return buildRouteIndex(corridorRouteOf(route));
}

/** Fix n of truck i (fix time t0 + n · 30 s). */
export function fixOf(
  index: ReturnType<typeof routeGeometry>,
  truck: Pick<Truck, 'index' | 'uniqueId' | 'detours'>,
  n: number,
  t0: number,
): Fix {
  const startAlong = 10_000 + ((truck.index * 7919) % 690) * 1000;
  const off = truck.detours && n % CYCLE >= ON;
  const [lon, lat] = index.pointAt(startAlong + n * STEP_M, off ? OFF_M : 0);
  return {
    deviceId: truck.uniqueId,
    time: new Date(t0 + n * FIX_INTERVAL_MS),
    lat,
    lon,
    speedKph: 45,
    courseDeg: 0,
    altitudeM: 1200,
    accuracyM: 5,
    batteryPct: 90,
  };
}

/** A tracker that keeps trying (a real one holds its fixes until acknowledged), moving between the ingest addresses when one is gone. */
export function trackerSender(uniqueId: string, ports: number[], home: number): TcpDeviceSender {
  const order = ports.map((_, k) => ports[(home + k) % ports.length]!);
  return new TcpDeviceSender({
    host: '127.0.0.1',
    port: order[0]!,
    failover: order.slice(1).map((port) => ({ host: '127.0.0.1', port })),
    codec: gt06Codec(uniqueId),
    ackTimeoutMs: 120_000,
    maxRetries: Number.POSITIVE_INFINITY,
    initialBackoffMs: 200,
    maxBackoffMs: 2000,
  });
}
