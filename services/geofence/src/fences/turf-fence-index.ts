import Flatbush from 'flatbush';
import { booleanPointInPolygon, distance, lineString, point, pointToLineDistance, polygon } from '@turf/turf';
import type { Fence } from './fence';
import type { FenceIndex } from './fence-index';
import { shapeBBox } from './geometry';

/**
 * Baseline for the benchmark and an independent cross-check in tests: flatbush over fence boxes,
 * then @turf/turf's tests. Not Traccar-exact: turf measures on the mean Earth radius
 * (6,371,008.8 m) where Traccar uses 6,378,137 m, so answers differ within ~0.11 % of a circle's
 * radius or a corridor's width of the boundary. Use the other indexes in production.
 */
export class TurfBBoxFenceIndex implements FenceIndex {
  private tree: Flatbush | undefined;
  private tests: ((lon: number, lat: number) => boolean)[] = [];
  private ids: string[] = [];

  load(fences: Fence[]): void {
    this.ids = fences.map((f) => f.id);
    this.tests = fences.map(({ shape }) => {
      switch (shape.kind) {
        case 'circle': {
          const centre = point([...shape.center]);
          return (lon: number, lat: number) => distance(point([lon, lat]), centre, { units: 'meters' }) <= shape.radius;
        }
        case 'polygon': {
          const feature = polygon(shape.rings.map((ring) => ring.map((p) => [...p])));
          return (lon: number, lat: number) => booleanPointInPolygon([lon, lat], feature);
        }
        case 'line': {
          const feature = lineString(shape.points.map((p) => [...p]));
          return (lon: number, lat: number) => pointToLineDistance([lon, lat], feature, { units: 'meters' }) <= shape.width;
        }
      }
    });
    if (fences.length === 0) {
      this.tree = undefined;
      return;
    }
    const tree = new Flatbush(fences.length);
    for (const { shape } of fences) tree.add(...shapeBBox(shape));
    tree.finish();
    this.tree = tree;
  }

  containing(lon: number, lat: number): string[] {
    const out: string[] = [];
    this.tree?.search(lon, lat, lon, lat, (i) => {
      if ((this.tests[i] as (lon: number, lat: number) => boolean)(lon, lat)) out.push(this.ids[i] as string);
      return false;
    });
    return out;
  }
}
