/**
 * A fix as ingest publishes it on positions.v1 (about 330 bytes of JSON): the `i`-th fix of the
 * device whose id is `deviceId`, for the benches that publish position-sized messages.
 */
export const samplePosition = (deviceId: number, i: number): object => ({
  id: 1_000_000_000 + i,
  deviceId,
  protocol: 'gt06',
  serverTime: new Date().toISOString(),
  fixTime: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  valid: true,
  latitude: -1.29 - i / 1e6,
  longitude: 36.82 + i / 1e6,
  altitude: 1600,
  speed: 27.5,
  course: 90,
  accuracy: 5,
  satellites: 9,
  attributes: { ignition: true, odometer: 1000 + i, batteryLevel: 90, motion: true },
  rawFrameId: `f${i}`,
});
