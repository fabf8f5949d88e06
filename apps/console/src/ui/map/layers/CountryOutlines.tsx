import { useEffect, useState } from 'react';
import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { loadCountries } from '../countries';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  { id: 'countries-fill', type: 'fill', paint: { 'fill-color': C.land } },
  { id: 'countries-line', type: 'line', paint: { 'line-color': C.border, 'line-width': 0.8 } },
];

/** Land and country borders of the offline base (Natural Earth through world-atlas). */
export function CountryOutlines() {
  const [data, setData] = useState<FeatureCollection | null>(null);
  useEffect(() => {
    let live = true;
    loadCountries()
      .then((fc) => live && setData(fc))
      .catch(() => undefined); // the sea and the overlays still show; the outlines come back on the next load
    return () => {
      live = false;
    };
  }, []);
  useGeoJsonLayer({ id: 'countries', slot: 'countries', layers: LAYERS, data });
  return null;
}
