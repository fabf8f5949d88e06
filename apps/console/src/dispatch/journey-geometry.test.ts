import { describe, expect, it } from 'vitest';
import type { JourneyDetail } from '@corridor/contracts/journeys';
import { journeyBounds } from './journey-geometry';

const detail = (over: { track: [number, number][]; flags?: string[] }): JourneyDetail =>
  ({
    route: {
      line: [
        [39.6, -4.0],
        [34.1, 0.6],
      ],
      widthM: 2000,
      stopAreas: [],
    },
    track: over.track.map(([longitude, latitude]) => ({ longitude, latitude })),
    flags: (over.flags ?? []).map((type, id) => ({ id, type })),
  }) as unknown as JourneyDetail;

describe('journeyBounds', () => {
  it('fits the route before the truck has a track', () => {
    expect(journeyBounds(detail({ track: [] }))).toEqual([
      [34.1, -4.0],
      [39.6, 0.6],
    ]);
  });

  it('fits the track of a journey on its corridor', () => {
    expect(
      journeyBounds(
        detail({
          track: [
            [37.0, -2.0],
            [37.2, -1.9],
          ],
        }),
      ),
    ).toEqual([
      [37.0, -2.0],
      [37.2, -1.9],
    ]);
  });

  it('takes in the route too once the truck has left its corridor, so both are in view', () => {
    expect(
      journeyBounds(
        detail({
          track: [
            [30.0, -6.0],
            [30.1, -6.1],
          ],
          flags: ['offCorridor'],
        }),
      ),
    ).toEqual([
      [30.0, -6.1],
      [39.6, 0.6],
    ]);
  });
});
