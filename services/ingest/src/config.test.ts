import { ConfigError, parseConfig } from '@corridor/platform';
import { describe, expect, it } from 'vitest';
import { IngestConfig } from './config';

describe('IngestConfig', () => {
  it("defaults the device ports to Traccar's and the limits to their documented values", () => {
    const c = parseConfig(IngestConfig, {});
    expect([c.GT06_PORT, c.TELTONIKA_PORT, c.H02_PORT, c.GPS103_PORT, c.TK103_PORT, c.MEITRACK_PORT, c.OSMAND_PORT]).toEqual([
      5023, 5027, 5013, 5001, 5002, 5020, 5055,
    ]);
    expect([c.JT808_PORT, c.RUPTELA_PORT, c.JT701_PORT, c.QUECLINK_PORT, c.WIALON_PORT]).toEqual([5015, 5046, 5014, 5004, 5039]);
    expect(c).toMatchObject({ IDLE_TIMEOUT_S: 600, UNKNOWN_DEVICES: 'reject', CRC_POLICY: { default: 'accept' } });
  });

  it('takes 0 to turn a protocol off and per-protocol CRC actions', () => {
    const c = parseConfig(IngestConfig, { H02_PORT: '0', CRC_POLICY: 'drop,teltonika:accept', UNKNOWN_DEVICES: 'pending' });
    expect(c.H02_PORT).toBe(0);
    expect(c.CRC_POLICY).toEqual({ default: 'drop', teltonika: 'accept' });
    expect(c.UNKNOWN_DEVICES).toBe('pending');
  });

  it('names every bad variable', () => {
    let error: unknown;
    try {
      parseConfig(IngestConfig, {
        GT06_PORT: '70000',
        IDLE_TIMEOUT_S: '0',
        MAX_FRAME_BYTES: 'big',
        CRC_POLICY: 'gt06:maybe',
        UNKNOWN_DEVICES: 'allow',
        RAW_FRAME_TTL_DAYS: '-1',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const vars = (error as ConfigError).problems.map((p) => p.variable).sort();
    expect(vars).toEqual(['CRC_POLICY', 'GT06_PORT', 'IDLE_TIMEOUT_S', 'MAX_FRAME_BYTES', 'RAW_FRAME_TTL_DAYS', 'UNKNOWN_DEVICES']);
  });
});
