import type { GeofenceAttributes, GeofenceInput } from '@corridor/contracts';
import { AppError } from '@corridor/platform';
import type { AreaIssue, AreaResult, IssuePath } from '../fences/area-issue';
import { parseAreaGeoJson } from '../fences/area-geojson';
import { formatAreaWkt, parseAreaWkt } from '../fences/area-wkt';
import type { FenceShape } from '../fences/fence';

/** One entry of a 400's details: where in the request body, what, and why. */
interface AreaIssueDetail {
  in: 'body';
  path: string;
  code: string;
  message: string;
}

export interface ResolvedArea {
  shape: FenceShape;
  /** Traccar WKT as stored and returned */
  area: string;
  attributes: GeofenceAttributes;
}

/**
 * Maps a GeoJSON parser path (relative to the `geometry` value, or to the options it was given)
 * onto the request body: radius and polylineDistance come from the body, the rest from geometry.
 */
function geoJsonPath(path: IssuePath, isFeature: boolean): IssuePath {
  const [head] = path;
  if (head === 'radius') return ['radius'];
  if (head === 'polylineDistance') return ['attributes', 'polylineDistance'];
  if (head === 'properties' && !isFeature) return path[1] === 'radius' ? ['radius'] : ['attributes', 'polylineDistance'];
  return ['geometry', ...path];
}

function detail(issue: AreaIssue, map: (p: IssuePath) => IssuePath): AreaIssueDetail {
  return { in: 'body', path: map(issue.path).join('.'), code: issue.code, message: issue.message };
}

/**
 * Reads a fence input's area (Traccar WKT or GeoJSON) into a shape, or throws 400 VALIDATION_FAILED
 * whose details list every problem with its path in the body. The stored area is always Traccar
 * WKT; a corridor line's width is kept as attributes.polylineDistance. Normalisations (an open WKT
 * ring closed, a repeated point dropped) are accepted silently: the stored area shows them.
 */
export function resolveArea(input: GeofenceInput): ResolvedArea {
  let result: AreaResult;
  let map: (p: IssuePath) => IssuePath = (p) => p;
  const width = input.attributes.polylineDistance;
  if (input.area !== undefined) {
    result = parseAreaWkt(input.area, input.attributes);
  } else {
    const geometry = input.geometry ?? {};
    const isFeature = geometry.type === 'Feature';
    result = parseAreaGeoJson(geometry, { radius: input.radius, polylineDistance: width });
    map = (p) => geoJsonPath(p, isFeature);
  }
  const notices = result.notices.map((n) => detail(n, map));
  const errors = result.ok ? [] : result.errors.map((e) => detail(e, map));
  if (input.area === undefined) {
    // RFC 7946 §3.1.6: a GeoJSON linear ring is closed. (Traccar WKT may leave it open; it is closed for you.)
    for (const n of notices.filter((x) => x.code === 'ring_closed')) {
      errors.push({
        ...n,
        code: 'unclosed_ring',
        message: `${n.message.split(';')[0]}: GeoJSON rings must end with their first position (RFC 7946 §3.1.6)`,
      });
    }
  }
  if (!result.ok || errors.length) {
    const first = errors[0];
    throw new AppError('VALIDATION_FAILED', first ? `${first.in}.${first.path}: ${first.message}` : 'invalid area', errors);
  }
  const { shape } = result as Extract<AreaResult, { ok: true }>;
  const attributes: GeofenceAttributes = { ...input.attributes };
  if (shape.kind === 'line') attributes.polylineDistance = shape.width;
  return { shape, area: formatAreaWkt(shape), attributes };
}
