/**
 * Planar segment geometry in a local metric projection (x = lon·kx, y = lat·ky, metres).
 * Pure arithmetic over plain numbers so the hot path allocates nothing.
 */

/** Squared distance from (px, py) to the segment (ax, ay)–(bx, by). */
export function pointSegmentDistanceSq(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = 0;
  if (len2 > 0) {
    t = ((px - ax) * dx + (py - ay) * dy) / len2;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
  }
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/** Position (0..1) along the segment of the point nearest to (px, py). */
export function projectOntoSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return 0;
  const t = ((px - ax) * dx + (py - ay) * dy) / len2;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Minimum distance between two segments AB and CD (0 when they cross). */
export function segmentSegmentDistance(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): number {
  const o1 = orientation(ax, ay, bx, by, cx, cy);
  const o2 = orientation(ax, ay, bx, by, dx, dy);
  const o3 = orientation(cx, cy, dx, dy, ax, ay);
  const o4 = orientation(cx, cy, dx, dy, bx, by);
  if (o1 * o2 < 0 && o3 * o4 < 0) return 0;
  return Math.sqrt(
    Math.min(
      pointSegmentDistanceSq(ax, ay, cx, cy, dx, dy),
      pointSegmentDistanceSq(bx, by, cx, cy, dx, dy),
      pointSegmentDistanceSq(cx, cy, ax, ay, bx, by),
      pointSegmentDistanceSq(dx, dy, ax, ay, bx, by),
    ),
  );
}
