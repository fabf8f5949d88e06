import Flatbush from 'flatbush';
import type { BBox, Fence } from './fence';
import type { FenceIndex } from './fence-index';
import { prepareFence, prepareSegments } from './prepared-fence';

/**
 * flatbush (packed Hilbert R-tree) over fence boxes, then the exact test. Circles and polygons are
 * one entry each (circles grown by their radius); corridor lines are one entry per segment grown by
 * the width, so a 1,000 km corridor costs nothing to fixes far from it.
 */
export class BBoxFenceIndex implements FenceIndex {
  private tree: Flatbush | undefined;
  private entryFence = new Int32Array(0);
  private entryTest: ((lon: number, lat: number) => boolean)[] = [];
  private ids: string[] = [];
  /** per fence: the query number that last reported it (dedupes segments of one line) */
  private seen = new Uint32Array(0);
  private query = 0;

  load(fences: Fence[]): void {
    const fenceOf: number[] = [];
    const tests: ((lon: number, lat: number) => boolean)[] = [];
    const boxes: number[] = [];
    fences.forEach((fence, f) => {
      const entries = fence.shape.kind === 'line' ? prepareSegments(fence.shape.points, fence.shape.width) : [prepareFence(fence)];
      for (const e of entries) {
        fenceOf.push(f);
        tests.push(e.contains);
        boxes.push(...e.bbox);
      }
    });
    this.ids = fences.map((f) => f.id);
    this.entryFence = Int32Array.from(fenceOf);
    this.entryTest = tests;
    this.seen = new Uint32Array(fences.length);
    this.query = 0;
    if (tests.length === 0) {
      this.tree = undefined;
      return;
    }
    const tree = new Flatbush(tests.length);
    for (let i = 0; i < boxes.length; i += 4) {
      tree.add(boxes[i] as number, boxes[i + 1] as number, boxes[i + 2] as number, boxes[i + 3] as number);
    }
    tree.finish();
    this.tree = tree;
  }

  containing(lon: number, lat: number): string[] {
    const out: string[] = [];
    if (!this.tree) return out;
    if (this.query === 0xffffffff) {
      this.seen.fill(0);
      this.query = 0;
    }
    const q = ++this.query;
    this.tree.search(lon, lat, lon, lat, (i) => {
      const f = this.entryFence[i] as number;
      if (this.seen[f] !== q && (this.entryTest[i] as (lon: number, lat: number) => boolean)(lon, lat)) {
        this.seen[f] = q;
        out.push(this.ids[f] as string);
      }
      return false;
    });
    return out;
  }

  /** Ids of the fences with an entry whose box meets `box` (candidates only: no exact test). */
  overlapping([minLon, minLat, maxLon, maxLat]: BBox): string[] {
    if (!this.tree) return [];
    const fences = new Set<number>();
    for (const i of this.tree.search(minLon, minLat, maxLon, maxLat)) fences.add(this.entryFence[i] as number);
    return [...fences].map((f) => this.ids[f] as string);
  }
}
