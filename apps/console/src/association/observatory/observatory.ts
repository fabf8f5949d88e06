import type { Feature, FeatureCollection, LineString, Point } from 'geojson';
import { CORRIDORS, PLACES, measureLine, pointAlong, type LonLat } from '@corridor/geodata';
import { observatoryEndpoints, type ObservatoryOverview } from '@corridor/contracts/observatory';
import { endpoint } from '../../api/endpoint';

export const observatoryTransit = endpoint(observatoryEndpoints, 'observatory.transit');
export const observatoryDwell = endpoint(observatoryEndpoints, 'observatory.dwell');
export const observatoryStops = endpoint(observatoryEndpoints, 'observatory.stops');
export const observatoryMap = endpoint(observatoryEndpoints, 'observatory.map');
export const observatorySettings = endpoint(observatoryEndpoints, 'observatory.settings');
export const observatoryUpdateSettings = endpoint(observatoryEndpoints, 'observatory.updateSettings');

/** Transit speed classes of the map, km/h (lower bound), slowest first, with their colours. */
export const SPEED_CLASSES = [
  { min: 0, colour: '#b42318' },
  { min: 20, colour: '#e0a100' },
  { min: 35, colour: '#3b82f6' },
  { min: 50, colour: '#12a150' },
] as const;
export const NO_SPEED_COLOUR = '#94a3b8';

export function speedColour(kmh: number | null): string {
  if (kmh === null) return NO_SPEED_COLOUR;
  let colour: string = SPEED_CLASSES[0].colour;
  for (const c of SPEED_CLASSES) if (kmh >= c.min) colour = c.colour;
  return colour;
}

const measured = new Map(CORRIDORS.map((c) => [c.id, measureLine(c.line)]));

/** The part of a corridor's line between two distances along it (either order), start and end included. */
export function lineBetween(corridor: string, a: number, b: number): LonLat[] | null {
  const m = measured.get(corridor as (typeof CORRIDORS)[number]['id']);
  if (!m) return null;
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  const first = pointAlong(m, lo);
  const last = pointAlong(m, hi);
  const inner = m.line.slice(first.segment + 1, last.segment + 1);
  return [first.coord, ...inner, last.coord];
}

/**
 * The map's segments: each segment of the period (the `all` or own-company series, one per pair
 * of places and direction) drawn along the corridor's line, coloured by its transit speed. The two
 * directions share the line; the slower one is drawn on top (what holds trucks up shows).
 */
export function segmentFeatures(o: ObservatoryOverview, series: 'all' | 'company'): FeatureCollection<LineString> {
  const rows = o.segments.filter((s) => s.series === series).sort((x, y) => (y.speedKmh ?? Infinity) - (x.speedKmh ?? Infinity));
  const features: Feature<LineString>[] = [];
  for (const s of rows) {
    const line = lineBetween(s.corridor, s.fromAlongM, s.toAlongM);
    if (!line) continue;
    features.push({
      type: 'Feature',
      properties: { from: s.fromName, to: s.toName, direction: s.direction, speed: s.speedKmh, colour: speedColour(s.speedKmh) },
      geometry: { type: 'LineString', coordinates: line.map(([lon, lat]) => [lon, lat]) },
    });
  }
  return { type: 'FeatureCollection', features };
}

const placeCentres = new Map(PLACES.map((p) => [p.name, p.center]));

/** Radius of a place's circle, px: grows with the square root of its median dwell (area for time), 5 to 28. */
export function dwellRadius(seconds: number | null): number {
  if (seconds === null) return 5;
  return Math.min(28, 5 + Math.sqrt(seconds / 60) * 1.6);
}

/**
 * The map's places: each place measured in the period (the shared geofences are made from the
 * places of packages/geodata, whose names they keep), sized by its median dwell. A place of a name
 * geodata does not know (a checkpoint an administrator drew) has no circle; the table lists it.
 */
export function placeFeatures(o: ObservatoryOverview, series: 'all' | 'company'): FeatureCollection<Point> {
  const features: Feature<Point>[] = [];
  for (const p of o.places) {
    if (p.series !== series) continue;
    const c = placeCentres.get(p.placeName);
    if (!c) continue;
    features.push({
      type: 'Feature',
      properties: { name: p.placeName, kind: p.placeKind, median: p.medianSeconds, radius: dwellRadius(p.medianSeconds) },
      geometry: { type: 'Point', coordinates: [c[0], c[1]] },
    });
  }
  return { type: 'FeatureCollection', features };
}
