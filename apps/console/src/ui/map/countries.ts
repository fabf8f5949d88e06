import type { FeatureCollection } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countriesUrl from 'world-atlas/countries-50m.json?url';

let loading: Promise<FeatureCollection> | undefined;

/**
 * Natural Earth 1:50m country outlines (world-atlas), served as a hashed static file beside the
 * console (no network beyond this origin), converted from TopoJSON once per page.
 */
export function loadCountries(): Promise<FeatureCollection> {
  loading ??= fetch(countriesUrl)
    .then((r) => {
      if (!r.ok) throw new Error(`country outlines: HTTP ${r.status}`);
      return r.json() as Promise<Topology<{ countries: GeometryCollection }>>;
    })
    .then((topo) => feature(topo, topo.objects.countries) as FeatureCollection)
    .catch((e: unknown) => {
      loading = undefined;
      throw e;
    });
  return loading;
}
