import type { BBox, Fence, FenceShape, LonLat } from './fence';
import {
  BOUNDARY_TOLERANCE_M,
  EARTH_RADIUS_M,
  containsPoint,
  metresPerDegreeLon,
  pointsBBox,
  segmentWithinMeters,
  shapeBBox,
} from './geometry';

const RAD = Math.PI / 180;

/** A fence with its box and a containment test specialised once, for the indexes. */
export interface PreparedFence {
  id: string;
  shape: FenceShape;
  bbox: BBox;
  contains: (lon: number, lat: number) => boolean;
}

function circleTest(center: LonLat, radius: number): (lon: number, lat: number) => boolean {
  // haversine with the centre's trigonometry hoisted; same formula as haversineMeters
  const [clon, clat] = center;
  const cosC = Math.cos(clat * RAD);
  const limit = radius + BOUNDARY_TOLERANCE_M;
  return (lon, lat) => {
    const sinDLat = Math.sin(((lat - clat) * RAD) / 2);
    const sinDLon = Math.sin(((lon - clon) * RAD) / 2);
    const a = sinDLat * sinDLat + cosC * Math.cos(lat * RAD) * sinDLon * sinDLon;
    return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a))) <= limit;
  };
}

export function prepareFence(fence: Fence): PreparedFence {
  const { shape } = fence;
  const contains =
    shape.kind === 'circle' ? circleTest(shape.center, shape.radius) : (lon: number, lat: number) => containsPoint(shape, lon, lat);
  return { id: fence.id, shape, bbox: shapeBBox(shape), contains };
}

/** One segment of a corridor line, indexed on its own so long corridors do not make huge boxes. */
export interface PreparedSegment {
  bbox: BBox;
  contains: (lon: number, lat: number) => boolean;
}

export function prepareSegments(points: readonly LonLat[], width: number): PreparedSegment[] {
  const limit = width + BOUNDARY_TOLERANCE_M;
  const out: PreparedSegment[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const a = points[i] as LonLat;
    const b = points[i + 1] as LonLat;
    out.push({
      bbox: pointsBBox([a, b], limit),
      contains: (lon, lat) => segmentWithinMeters(lon, lat, metresPerDegreeLon(lat), a, b, limit),
    });
  }
  return out;
}
