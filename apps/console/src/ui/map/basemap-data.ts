import type { FeatureCollection, LineString, Point } from 'geojson';
import roadsUrl from '@corridor/geodata/data/roads.geojson?url';
import townsUrl from '@corridor/geodata/data/towns.geojson?url';

/** One file of packages/geodata/data, fetched once per page from this origin (hashed static asset: no outside network). */
function once<T>(url: string): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= fetch(url)
      .then((r) => {
        if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
        return r.json() as Promise<T>;
      })
      .catch((e: unknown) => {
        loading = undefined; // tried again on the next map
        throw e;
      }));
}

/** Towns and cities (GeoNames, CC BY 4.0; packages/geodata/data/README.md): name, country, population, rank 1 (capitals, cities of a million) … 4. */
export const loadTowns =
  once<FeatureCollection<Point, { name: string; country: string; population: number; rank: 1 | 2 | 3 | 4 }>>(townsUrl);
/** Trunk roads beyond the two corridors (schematic lines through the towns they link): ref, name, class. */
export const loadRoads = once<FeatureCollection<LineString, { ref: string; name: string; class: string }>>(roadsUrl);
