import { describe, expect, it } from 'vitest';
import { draftFromFence, draftGeometry, moveCorner } from './geofence-draft';

/** A stored fence read back as corners to move (Traccar's latitude-first WKT), and the geometry sent after a move. */
describe('geofence drafts from stored fences', () => {
  it('a polygon gives its corners without the closing one; a moved corner changes only that corner', () => {
    const d = draftFromFence({ area: 'POLYGON ((-1.3 36.9, -1.3 36.92, -1.32 36.92, -1.32 36.9, -1.3 36.9))', attributes: {} })!;
    expect(d).toEqual({
      shape: 'polygon',
      points: [
        [36.9, -1.3],
        [36.92, -1.3],
        [36.92, -1.32],
        [36.9, -1.32],
      ],
      metres: 0,
    });
    const moved = moveCorner(d, 1, [36.93, -1.29]);
    expect(draftGeometry(moved).geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [36.9, -1.3],
          [36.93, -1.29],
          [36.92, -1.32],
          [36.9, -1.32],
          [36.9, -1.3],
        ],
      ],
    });
    expect(d.points[1]).toEqual([36.92, -1.3]); // the draft given is not changed
  });

  it('a circle gives its centre and radius; a corridor its line and half-width (25 m when not set)', () => {
    expect(draftFromFence({ area: 'CIRCLE (-4.05 39.66, 750)', attributes: {} })).toEqual({
      shape: 'circle',
      points: [[39.66, -4.05]],
      metres: 750,
    });
    expect(draftFromFence({ area: 'LINESTRING (-1.3 36.9, -1.4 37.0)', attributes: { polylineDistance: 120 } })).toEqual({
      shape: 'corridor',
      points: [
        [36.9, -1.3],
        [37, -1.4],
      ],
      metres: 120,
    });
    expect(draftFromFence({ area: 'LINESTRING (-1.3 36.9, -1.4 37.0)', attributes: {} })!.metres).toBe(25);
  });

  it('a polygon with a hole, or text it does not know, is not edited by its corners', () => {
    expect(
      draftFromFence({ area: 'POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0), (0.2 0.2, 0.2 0.4, 0.4 0.4, 0.2 0.2))', attributes: {} }),
    ).toBeNull();
    expect(draftFromFence({ area: 'MULTIPOLYGON (((0 0, 0 1, 1 1, 0 0)))', attributes: {} })).toBeNull();
  });
});
