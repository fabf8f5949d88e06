import { POLYLINE_DISTANCE_DEFAULT_M, type LonLat } from './fence';
import type { AreaResult, IssuePath } from './area-issue';
import { validateShape, type RawShape } from './area-validation';

/**
 * GeoJSON (RFC 7946, [lon, lat] order) as an alternative way to define a fence:
 *   Polygon (holes as extra rings)            → polygon
 *   Point + radius (metres)                   → circle
 *   LineString + polylineDistance (metres)    → corridor line (default width 25 m, as Traccar)
 * Accepts a bare geometry or a Feature whose properties carry `radius` / `polylineDistance`;
 * explicit options win over properties. Produces the same shape (and issues) as the WKT parser.
 */
export interface GeoJsonAreaOptions {
  radius?: number;
  polylineDistance?: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(path: IssuePath, code: 'syntax' | 'unsupported_geometry' | 'invalid_number', message: string): AreaResult {
  return { ok: false, errors: [{ path, code, message }], notices: [] };
}

function position(v: unknown): LonLat | undefined {
  if (!Array.isArray(v) || v.length < 2) return undefined;
  const [lon, lat] = v as unknown[];
  return typeof lon === 'number' && typeof lat === 'number' ? [lon, lat] : undefined;
}

function positions(v: unknown, path: IssuePath): LonLat[] | AreaResult {
  if (!Array.isArray(v)) return fail(path, 'syntax', 'expected an array of [lon, lat] positions');
  const out: LonLat[] = [];
  for (let i = 0; i < v.length; i++) {
    const p = position(v[i]);
    if (!p) return fail([...path, i], 'syntax', 'expected a [lon, lat] position of numbers');
    out.push(p);
  }
  return out;
}

function numberOption(value: unknown, path: IssuePath, name: string): number | undefined | AreaResult {
  if (value === undefined) return undefined;
  if (typeof value !== 'number') return fail(path, 'invalid_number', `${name} must be a number of metres`);
  return value;
}

export function parseAreaGeoJson(input: unknown, options: GeoJsonAreaOptions = {}): AreaResult {
  if (!isRecord(input)) return fail([], 'syntax', 'expected a GeoJSON geometry or Feature object');
  let geometry: unknown = input;
  let base: IssuePath = [];
  let props: Record<string, unknown> = {};
  if (input.type === 'Feature') {
    geometry = input.geometry;
    base = ['geometry'];
    if (isRecord(input.properties)) props = input.properties;
  }
  if (!isRecord(geometry)) return fail(base, 'syntax', 'expected a GeoJSON geometry object');
  const coordsPath = [...base, 'coordinates'];
  const coordinates = geometry.coordinates;
  const radiusPath = options.radius !== undefined ? ['radius'] : ['properties', 'radius'];
  const widthPath = options.polylineDistance !== undefined ? ['polylineDistance'] : ['properties', 'polylineDistance'];
  const paths = { coordinates: coordsPath, radius: radiusPath, width: widthPath, latitudeFirst: false };

  let raw: RawShape;
  switch (geometry.type) {
    case 'Polygon': {
      if (!Array.isArray(coordinates)) return fail(coordsPath, 'syntax', 'expected an array of rings');
      const rings: LonLat[][] = [];
      for (let r = 0; r < coordinates.length; r++) {
        const ring = positions(coordinates[r], [...coordsPath, r]);
        if (!Array.isArray(ring)) return ring;
        rings.push(ring);
      }
      raw = { kind: 'polygon', rings };
      break;
    }
    case 'Point': {
      const center = position(coordinates);
      if (!center) return fail(coordsPath, 'syntax', 'expected a [lon, lat] position of numbers');
      const radius = numberOption(options.radius ?? props.radius, radiusPath, 'radius');
      if (typeof radius === 'object') return radius;
      if (radius === undefined) return fail(radiusPath, 'invalid_number', 'a Point fence needs a radius in metres');
      raw = { kind: 'circle', center, radius };
      break;
    }
    case 'LineString': {
      const points = positions(coordinates, coordsPath);
      if (!Array.isArray(points)) return points;
      const width = numberOption(options.polylineDistance ?? props.polylineDistance, widthPath, 'polylineDistance');
      if (typeof width === 'object') return width;
      raw = { kind: 'line', points, width: width ?? POLYLINE_DISTANCE_DEFAULT_M };
      break;
    }
    default:
      return fail(
        [...base, 'type'],
        'unsupported_geometry',
        `GeoJSON type ${String(geometry.type)} is not supported; use Polygon, Point (+ radius) or LineString`,
      );
  }
  return validateShape(raw, paths);
}
