import { describe, expect, it } from 'vitest';
import { buildRouteIndex } from '@corridor/journey/corridor/route-index';
import { evaluate, type JourneyState } from '@corridor/journey/detectors/journey-evaluator';
import { DEFAULT_THRESHOLDS } from '@corridor/journey/detectors/thresholds';
import { corridorRouteOf } from '@corridor/journey/routes/corridor-route';
import { corridorSeed } from '@corridor/journey/seed/corridor-seeds';
import { changesFlag, DEVICES, FIX_INTERVAL_MS, isOff, PHASES, RATES, SECONDS, truckPoint } from './journey-trucks';

/**
 * The journey-latency bench counts the flag changes that arrive against the ones its trucks must
 * cause. This holds that expectation against the evaluator itself, fix by fix, over every phase of
 * a bench run on the seeded Northern Corridor: a bench that expects a flag the evaluator never
 * raises reports it as lost (it once reported 4,998 of 5,000 at 5,000 fixes/s: OFF fixes on the
 * inside of bends were within 2.5 km of the next segment).
 */
describe('journey-latency bench trucks', () => {
  const seed = corridorSeed('northern');
  const index = buildRouteIndex(
    corridorRouteOf({
      id: 0,
      line: seed.line,
      legs: seed.legs,
      widthM: seed.widthM,
      speedLimitsKmh: seed.speedLimitsKmh,
      stopAreas: seed.stopAreas,
      expectedDurationMinutes: seed.expectedDurationMinutes,
    }),
  );

  it('causes exactly the off-corridor changes the bench expects, on the fixes it expects them', () => {
    const t0 = Date.parse('2026-04-01T00:00:00Z');
    const phases = RATES.flatMap((rate) =>
      PHASES.map((p) => ({ ...p, label: `${rate}.${p.name}`, fixes: (rate * SECONDS[rate]!) / DEVICES })),
    );
    const expected = new Map<string, string[]>();
    const raised = new Map<string, string[]>();
    for (let d = 1; d <= DEVICES; d++) {
      let state: JourneyState | undefined;
      let n = 0;
      const feed = (detouring: boolean) => {
        const [longitude, latitude] = truckPoint(index, d, n, detouring && isOff(n));
        const r = evaluate(
          state,
          { time: t0 + n * FIX_INTERVAL_MS + d, latitude, longitude, speedKnots: 45 / 1.852 },
          index,
          DEFAULT_THRESHOLDS,
        );
        state = r.state;
        return r.flags.map((f) => `${d}/${n} ${f.type} ${f.action}`);
      };
      expect(feed(false)).toEqual([]); // the warm-up fix activates the journey
      n++;
      for (const phase of phases) {
        const detouring = phase.detourEvery > 0 && d % phase.detourEvery === 0;
        for (let k = 0; k < phase.fixes; k++, n++) {
          raised.set(phase.label, [...(raised.get(phase.label) ?? []), ...feed(detouring)]);
          if (detouring && changesFlag(n))
            expected.set(phase.label, [...(expected.get(phase.label) ?? []), `${d}/${n} offCorridor ${isOff(n) ? 'open' : 'clear'}`]);
        }
      }
    }
    for (const phase of phases) expect(raised.get(phase.label) ?? [], phase.label).toEqual(expected.get(phase.label) ?? []);
    expect(expected.get('5000.heavy')).toHaveLength(5000);
  });
});
