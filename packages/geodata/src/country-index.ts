import Flatbush from 'flatbush';
import pointInPolygon from 'point-in-polygon-hao';
import type { CountryOutline } from './gazetteer';

/**
 * Which country a point is in: the polygons' bounding boxes in a Flatbush index, then an exact
 * point-in-polygon test (point-in-polygon-hao, robust on edges) on the few whose box holds the point.
 * A point on an outline counts as inside.
 */
export function countryIndex(countries: readonly CountryOutline[]) {
  const parts: { code: string; rings: number[][][] }[] = [];
  for (const c of countries) for (const p of c.polygons) parts.push({ code: c.code, rings: p as unknown as number[][][] });
  const index = new Flatbush(Math.max(1, parts.length));
  for (const part of parts) {
    let [w, s, e, n] = [180, 90, -180, -90];
    for (const [x, y] of part.rings[0]!) {
      if (x! < w) w = x!;
      if (x! > e) e = x!;
      if (y! < s) s = y!;
      if (y! > n) n = y!;
    }
    index.add(w, s, e, n);
  }
  if (!parts.length) index.add(0, 0, 0, 0);
  index.finish();
  const names = new Map(countries.map((c) => [c.code, c.name]));

  return {
    /** ISO alpha-2 code of the country containing [lon, lat], or null. */
    at(lon: number, lat: number): string | null {
      for (const i of index.search(lon, lat, lon, lat)) {
        const part = parts[i];
        if (part && pointInPolygon([lon, lat], part.rings) !== false) return part.code;
      }
      return null;
    },
    /** Natural Earth's short English name of a code. */
    name: (code: string): string | undefined => names.get(code),
  };
}
export type CountryIndex = ReturnType<typeof countryIndex>;
