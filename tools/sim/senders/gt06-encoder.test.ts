import { decodeGt06, parseGt06Envelope, splitGt06Frames } from '@corridor/ingest/protocols/gt06';
import { describe, expect, it } from 'vitest';
import type { Fix } from '../truck';
import { crcItu, gt06Location, gt06Login, gt06Status, isGt06Ack, splitGt06Replies } from './gt06-encoder';

const fix: Fix = {
  deviceId: '356000000000001',
  time: new Date(Date.UTC(2026, 2, 4, 9, 15, 30)),
  lat: -3.9967,
  lon: 39.6667,
  speedKph: 72.4,
  courseDeg: 301.6,
  altitudeM: 20,
  accuracyM: 8,
  batteryPct: 90,
};

describe('GT06 encoder (simulator)', () => {
  it('reproduces the login example of the GT06 protocol document byte for byte', () => {
    // document example: 78 78 0D 01 01 23 45 67 89 01 23 45 00 01 8C DD 0D 0A
    expect(gt06Login('123456789012345', 1).toString('hex')).toBe('78780d010123456789012345' + '00018cdd0d0a');
    expect(crcItu(Buffer.from('123456789'))).toBe(0x906e); // CRC-16/X-25 check value
  });

  it('writes locations that ingest decodes to the same fix (CRC valid)', () => {
    const session = {};
    decodeGt06(gt06Login(fix.deviceId, 1), session);
    const frame = gt06Location(fix, 2);
    expect(splitGt06Frames(frame, 1024).frames).toHaveLength(1);
    const r = decodeGt06(frame, session);
    expect(r.crcValid).toBe(true);
    const [p] = r.positions;
    expect(p?.deviceId).toBe(fix.deviceId);
    expect(p?.fixTime.toISOString()).toBe('2026-03-04T09:15:30.000Z');
    expect(p?.latitude).toBeCloseTo(fix.lat, 5);
    expect(p?.longitude).toBeCloseTo(fix.lon, 5);
    expect((p?.speed ?? 0) * 1.852).toBeCloseTo(72, 5); // whole km/h on the wire
    expect(p?.course).toBe(302);
    expect(p?.valid).toBe(true);
    expect(p?.ignition).toBe(true);
    expect(r.ack && isGt06Ack(r.ack, 0x22, 2)).toBe(true);
    expect(parseGt06Envelope(gt06Status(3)).crcValid).toBe(true);
  });

  it('encodes the western and northern hemispheres', () => {
    const session = { deviceId: fix.deviceId };
    const [p] = decodeGt06(gt06Location({ ...fix, lat: 51.5, lon: -0.12 }, 5), session).positions;
    expect(p?.latitude).toBeCloseTo(51.5, 5);
    expect(p?.longitude).toBeCloseTo(-0.12, 5);
  });

  it('splits replies and recognises only the matching ack', () => {
    const ack = Buffer.from('787805220002' + 'xxxx'.replace(/x/g, '0') + '0d0a', 'hex');
    const real = decodeGt06(gt06Location(fix, 2), { deviceId: fix.deviceId }).ack!;
    expect(isGt06Ack(real, 0x22, 2)).toBe(true);
    expect(isGt06Ack(real, 0x22, 3)).toBe(false);
    expect(isGt06Ack(ack, 0x22, 2)).toBe(false); // wrong CRC
    const { frames, rest } = splitGt06Replies(Buffer.concat([real, real.subarray(0, 4)]));
    expect(frames).toHaveLength(1);
    expect(rest).toHaveLength(4);
  });
});
