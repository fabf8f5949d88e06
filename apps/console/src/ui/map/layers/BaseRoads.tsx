import { useEffect, useState } from 'react';
import type { FeatureCollection } from 'geojson';
import { loadRoads } from '../basemap-data';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  {
    id: 'roads',
    type: 'line',
    minzoom: 4.5,
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#d9a85b', 'line-opacity': 0.75, 'line-width': ['interpolate', ['linear'], ['zoom'], 5, 1, 10, 2.5] },
  },
];

/** The trunk roads beyond the corridors, under everything else (offline, from packages/geodata). */
export function BaseRoads() {
  const data = useLoaded(loadRoads);
  useGeoJsonLayer({ id: 'roads', slot: 'roads', layers: LAYERS, data });
  return null;
}

/** A file of the base map once it has loaded (null before; a failed load leaves the layer empty until the next map). */
export function useLoaded(load: () => Promise<FeatureCollection>): FeatureCollection | null {
  const [data, setData] = useState<FeatureCollection | null>(null);
  useEffect(() => {
    let live = true;
    load()
      .then((fc) => live && setData(fc))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [load]);
  return data;
}
