import { cellToLatLng, getHexagonAreaAvg, getHexagonEdgeLengthAvg, latLngToCell, polygonToCells } from 'h3-js';
import type { BBox, Fence, FenceShape, LonLat } from './fence';
import type { FenceIndex } from './fence-index';
import { METRES_PER_DEGREE, haversineMeters, metresPerDegreeLon, pointsBBox, signedDistanceMeters } from './geometry';
import { prepareFence, type PreparedFence } from './prepared-fence';

/**
 * Distance from an H3 cell's centre that bounds every point of the cell, as a multiple of the
 * resolution's average edge length. A regular hexagon's circumradius equals its edge; H3 cells
 * vary in size across the globe, and h3-fence-index.test.ts measures the largest ratio at East
 * African latitudes (about 1.1) so this margin is checked, not assumed.
 */
export const CELL_REACH_FACTOR = 1.3;

export interface H3FenceIndexOptions {
  /** coarse resolution answering "nothing here" with one lookup (res 6: ~36 km² cells) */
  gateResolution?: number;
  /** resolutions a fence's cover may use; the finest meeting targetCellsPerFence is chosen */
  resolutions?: number[];
  /** upper bound on area / cell area when choosing a fence's resolution */
  targetCellsPerFence?: number;
}

type Cover = { interior: string[]; boundary: string[] };

function cellReach(res: number): number {
  return getHexagonEdgeLengthAvg(res, 'm') * CELL_REACH_FACTOR;
}

/** Approximate area in m² (outer ring only for polygons), used only to choose a resolution. */
export function approximateAreaM2(shape: FenceShape): number {
  switch (shape.kind) {
    case 'circle':
      return Math.PI * shape.radius * shape.radius;
    case 'polygon': {
      const ring = shape.rings[0] ?? [];
      const kx = metresPerDegreeLon((ring[0] ?? [0, 0])[1]);
      let sum = 0;
      for (let i = 0; i < ring.length - 1; i++) {
        const a = ring[i] as LonLat;
        const b = ring[i + 1] as LonLat;
        sum += a[0] * kx * b[1] * METRES_PER_DEGREE - b[0] * kx * a[1] * METRES_PER_DEGREE;
      }
      return Math.abs(sum) / 2;
    }
    case 'line': {
      let length = 0;
      for (let i = 0; i < shape.points.length - 1; i++) {
        const a = shape.points[i] as LonLat;
        const b = shape.points[i + 1] as LonLat;
        length += haversineMeters(a[0], a[1], b[0], b[1]);
      }
      return length * 2 * shape.width + Math.PI * shape.width * shape.width;
    }
  }
}

/** Boxes whose union holds the fence: one per fence, or one per segment for corridor lines. */
function pieces(fence: PreparedFence): BBox[] {
  const { shape } = fence;
  if (shape.kind !== 'line') return [fence.bbox];
  const out: BBox[] = [];
  for (let i = 0; i < shape.points.length - 1; i++) {
    out.push(pointsBBox([shape.points[i] as LonLat, shape.points[i + 1] as LonLat], shape.width));
  }
  return out;
}

/**
 * Cells of resolution `res` that may hold a point of the fence, split into interior cells (every
 * point of the cell is inside: centre deeper than the cell's reach) and boundary cells.
 * Candidates are all cells whose centre lies in the fence box grown by the reach; a cell that
 * touches the fence has its centre within its reach of the fence, so none is missed.
 */
export function coverFence(fence: PreparedFence, res: number): Cover {
  const reach = cellReach(res);
  const candidates = new Set<string>();
  for (const [minLon, minLat, maxLon, maxLat] of pieces(fence)) {
    const [w, s, e, n] = pointsBBox(
      [
        [minLon, minLat],
        [maxLon, maxLat],
      ],
      reach * 1.1,
    );
    const ring = [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ];
    for (const cell of polygonToCells(ring, res, true)) candidates.add(cell);
  }
  const cover: Cover = { interior: [], boundary: [] };
  for (const cell of candidates) {
    const [lat, lon] = cellToLatLng(cell);
    const d = signedDistanceMeters(fence.shape, lon, lat);
    if (d <= -reach) cover.interior.push(cell);
    else if (d <= reach) cover.boundary.push(cell);
  }
  return cover;
}

export class H3FenceIndex implements FenceIndex {
  private readonly gateRes: number;
  private readonly resolutions: number[];
  private readonly target: number;
  private fences: PreparedFence[] = [];
  /** gate cell → bit mask of the resolutions (bit = position in this.resolutions) with cells under it */
  private gate = new Map<string, number>();
  /** per resolution: cell → entries (fence number * 2 + 1 when the cell is wholly inside) */
  private cells: Map<string, number[]>[] = [];
  /** resolution chosen per fence, for tests and diagnostics */
  chosen: number[] = [];

  constructor(options: H3FenceIndexOptions = {}) {
    this.gateRes = options.gateResolution ?? 6;
    this.resolutions = [...(options.resolutions ?? [7, 8, 9, 10])].sort((a, b) => a - b);
    this.target = options.targetCellsPerFence ?? 48;
    if (this.resolutions.length === 0 || this.resolutions.length > 30) throw new RangeError('resolutions: 1 to 30 values');
    if (this.resolutions.some((r) => r < this.gateRes)) throw new RangeError('resolutions must not be coarser than gateResolution');
  }

  private chooseResolution(shape: FenceShape): number {
    const area = approximateAreaM2(shape);
    for (let i = this.resolutions.length - 1; i >= 0; i--) {
      if (area / getHexagonAreaAvg(this.resolutions[i] as number, 'm2') <= this.target) return i;
    }
    return 0;
  }

  load(fences: Fence[]): void {
    this.fences = fences.map(prepareFence);
    this.gate = new Map();
    this.cells = this.resolutions.map(() => new Map<string, number[]>());
    this.chosen = [];
    this.fences.forEach((fence, f) => {
      const r = this.chooseResolution(fence.shape);
      const res = this.resolutions[r] as number;
      this.chosen.push(res);
      const cover = coverFence(fence, res);
      const map = this.cells[r] as Map<string, number[]>;
      const add = (cell: string, entry: number): void => {
        const list = map.get(cell);
        if (list) list.push(entry);
        else map.set(cell, [entry]);
      };
      for (const cell of cover.interior) add(cell, f * 2 + 1);
      for (const cell of cover.boundary) add(cell, f * 2);
      const gateCover = res === this.gateRes ? cover : coverFence(fence, this.gateRes);
      for (const cell of [...gateCover.interior, ...gateCover.boundary]) {
        this.gate.set(cell, (this.gate.get(cell) ?? 0) | (1 << r));
      }
    });
  }

  containing(lon: number, lat: number): string[] {
    const out: string[] = [];
    const gateCell = latLngToCell(lat, lon, this.gateRes);
    const mask = this.gate.get(gateCell);
    if (mask === undefined) return out;
    for (let r = 0; r < this.resolutions.length; r++) {
      if ((mask & (1 << r)) === 0) continue;
      const res = this.resolutions[r] as number;
      const cell = res === this.gateRes ? gateCell : latLngToCell(lat, lon, res);
      const entries = (this.cells[r] as Map<string, number[]>).get(cell);
      if (!entries) continue;
      for (const entry of entries) {
        const fence = this.fences[entry >> 1] as PreparedFence;
        if ((entry & 1) === 1 || fence.contains(lon, lat)) out.push(fence.id);
      }
    }
    return out;
  }
}
