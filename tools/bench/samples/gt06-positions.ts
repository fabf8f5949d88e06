import { positionId } from '@corridor/contracts';

const T0 = Date.UTC(2026, 0, 5, 6);

/** The i-th of a stream of GT06 positions as ingest publishes them: 200 devices, a fix a second each. */
export const gt06Position = (i: number) => {
  const device = 1 + (i % 200);
  const t = new Date(T0 + Math.floor(i / 200) * 1000).toISOString();
  return {
    id: positionId(device, t),
    deviceId: device,
    uniqueId: String(358_200_000_000_000 + device),
    protocol: 'gt06',
    fixTime: t,
    deviceTime: t,
    serverTime: t,
    valid: true,
    latitude: -1.3 - device / 1000,
    longitude: 36.8 + i / 1e6,
    speed: 29.15,
    course: 87,
    satellites: 9,
    ignition: true,
    odometer: i * 15,
    rawFrameId: `gt06:${device}:${i}`,
    attributes: { sat: 9, ignition: true, motion: true, distance: 15, totalDistance: i * 15, rssi: 4 },
  };
};
