import type { Fence } from './fence';
import { containsPoint } from './geometry';

/**
 * Answers "which fences contain this fix" over many fences. Implementations:
 *   NaiveFenceIndex (here)         every fence's exact test; the reference
 *   BBoxFenceIndex                 flatbush over fence boxes, then the exact test
 *   H3FenceIndex                   H3 cell covers; interior cells answer without the exact test
 * All give the same answer as the exact test in ./geometry (boundary counts inside).
 * `containing` returns fence ids in no particular order.
 */
export interface FenceIndex {
  load(fences: Fence[]): void;
  containing(lon: number, lat: number): string[];
}

export class NaiveFenceIndex implements FenceIndex {
  private fences: Fence[] = [];

  load(fences: Fence[]): void {
    this.fences = fences.slice();
  }

  containing(lon: number, lat: number): string[] {
    const out: string[] = [];
    for (const fence of this.fences) if (containsPoint(fence.shape, lon, lat)) out.push(fence.id);
    return out;
  }
}
