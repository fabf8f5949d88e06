import { z } from 'zod';

/** [longitude, latitude] in WGS84 degrees, GeoJSON order. */
export const LonLat = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
export type LonLat = z.infer<typeof LonLat>;

export const StopAreaKind = z.enum(['origin', 'destination', 'yard', 'border', 'weighbridge', 'rest', 'fuel', 'other']);
export type StopAreaKind = z.infer<typeof StopAreaKind>;

/** A circle where trucks may stop. `origin` / `destination` areas also drive journey start and completion. */
export const StopArea = z.object({
  kind: StopAreaKind,
  center: LonLat,
  radiusM: z.number().positive().describe('metres'),
  name: z.string().optional(),
});
export type StopArea = z.infer<typeof StopArea>;

/**
 * A corridor route as the evaluator consumes it. `line` is one LineString; `legs` are several
 * LineStrings concatenated in order (a junction vertex shared by two legs is kept once).
 * Exactly one of them is given.
 */
export const CorridorRoute = z
  .object({
    id: z.string().min(1),
    line: z.array(LonLat).min(2).optional(),
    legs: z.array(z.array(LonLat).min(2)).min(1).optional(),
    widthM: z.number().positive().describe('allowed distance from the centre line, metres (buffer radius, like Traccar polyline distance)'),
    speedLimitKmh: z
      .union([z.number().positive(), z.array(z.number().positive())])
      .describe('km/h: one limit for the whole route, or one per segment of the concatenated line'),
    stopAreas: z.array(StopArea).default([]),
    expectedDurationMinutes: z.number().positive(),
    terminalRadiusM: z
      .number()
      .positive()
      .default(1000)
      .describe('radius of the origin / destination circles synthesised at the line ends when stopAreas has none'),
  })
  .refine((r) => (r.line === undefined) !== (r.legs === undefined), { message: 'give exactly one of line or legs' });
export type CorridorRoute = z.infer<typeof CorridorRoute>;
export type CorridorRouteInput = z.input<typeof CorridorRoute>;

/** Joins legs; a leg starting where the previous one ended does not repeat that vertex. */
export function concatenateLegs(legs: readonly (readonly LonLat[])[]): LonLat[] {
  const out: LonLat[] = [];
  for (const leg of legs) {
    for (const [i, p] of leg.entries()) {
      const last = out[out.length - 1];
      if (i === 0 && last !== undefined && last[0] === p[0] && last[1] === p[1]) continue;
      out.push([p[0], p[1]]);
    }
  }
  return out;
}
