import { decodeTeltonika, splitTeltonikaFrames } from '@corridor/ingest/protocols/teltonika';
import { describe, expect, it } from 'vitest';
import type { Fix } from '../truck';
import { crc16Ibm, teltonikaAvlPacket, teltonikaImei } from './teltonika-encoder';

const fix = (i: number): Fix => ({
  deviceId: '356000000000002',
  time: new Date(Date.UTC(2026, 2, 4, 9, 15, 30, 250) + i * 10_000),
  lat: -6.1722 + i / 1000,
  lon: 35.7395,
  speedKph: i === 0 ? 0 : 64,
  courseDeg: 271,
  altitudeM: 1120,
  accuracyM: 8,
  batteryPct: 90,
});

describe('Teltonika encoder (simulator)', () => {
  it('uses CRC-16/IBM (check value 0xBB3D)', () => {
    expect(crc16Ibm(Buffer.from('123456789'))).toBe(0xbb3d);
  });

  it('writes an IMEI handshake and codec 8 packets ingest decodes to the same fixes and IO', () => {
    const session = {};
    const login = decodeTeltonika(teltonikaImei('356000000000002'), session);
    expect(login).toMatchObject({ kind: 'login', deviceId: '356000000000002' });
    const packet = teltonikaAvlPacket([fix(0), fix(1), fix(2)], { odometer: 123_456, externalVoltage: 27.6 });
    expect(splitTeltonikaFrames(packet, 4096).frames).toHaveLength(1);
    const r = decodeTeltonika(packet, session);
    expect(r.crcValid).toBe(true);
    expect(r.ack?.toString('hex')).toBe('00000003');
    expect(r.positions).toHaveLength(3);
    const [still, moving] = r.positions;
    expect(moving?.fixTime.toISOString()).toBe('2026-03-04T09:15:40.250Z');
    expect(moving?.latitude).toBeCloseTo(-6.1712, 6);
    expect(moving?.longitude).toBeCloseTo(35.7395, 6);
    expect(moving?.altitude).toBe(1120);
    expect(moving?.course).toBe(271);
    expect((moving?.speed ?? 0) * 1.852).toBeCloseTo(64, 5);
    expect(moving?.ignition).toBe(true);
    expect(moving?.odometer).toBe(123_456);
    expect(moving?.power).toBeCloseTo(27.6, 3);
    expect(moving?.attributes.motion).toBe(true);
    expect(still?.attributes.motion).toBe(false);
  });
});
