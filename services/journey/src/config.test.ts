import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@corridor/platform';
import { JourneyConfig } from './config';

describe('JourneyConfig', () => {
  it('defaults: a 30 s sweep, a 2-hour early start, seeding on', () => {
    const c = parseConfig(JourneyConfig, {});
    expect(c).toMatchObject({ PORT: 8084, JOURNEY_SWEEP_INTERVAL_S: 30, JOURNEY_EARLY_START_MINUTES: 120, JOURNEY_SEED_ROUTES: true });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads the journey variables', () => {
    const c = parseConfig(JourneyConfig, {
      JOURNEY_SWEEP_INTERVAL_S: '0',
      JOURNEY_EARLY_START_MINUTES: '30',
      JOURNEY_SEED_ROUTES: 'false',
    });
    expect(c).toMatchObject({ JOURNEY_SWEEP_INTERVAL_S: 0, JOURNEY_EARLY_START_MINUTES: 30, JOURNEY_SEED_ROUTES: false });
  });

  it('names every bad variable', () => {
    const bad = () => parseConfig(JourneyConfig, { JOURNEY_SWEEP_INTERVAL_S: '-5', JOURNEY_SEED_ROUTES: 'maybe', PORT: 'http' });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (err) {
      expect((err as ConfigError).problems.map((p) => p.variable).sort()).toEqual([
        'JOURNEY_SEED_ROUTES',
        'JOURNEY_SWEEP_INTERVAL_S',
        'PORT',
      ]);
    }
  });
});
