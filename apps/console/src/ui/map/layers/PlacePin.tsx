import { useMemo } from 'react';
import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  { id: 'place-pin-halo', type: 'circle', paint: { 'circle-radius': 16, 'circle-color': C.flag, 'circle-opacity': 0.18 } },
  {
    id: 'place-pin',
    type: 'circle',
    paint: { 'circle-radius': 6, 'circle-color': '#ffffff', 'circle-stroke-color': C.flag, 'circle-stroke-width': 3 },
  },
];

/** One place marked on the map (where an alert happened). */
export function PlacePin({ at }: { at: [number, number] | null }) {
  const data = useMemo<FeatureCollection | null>(
    () =>
      at
        ? { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: at } }] }
        : null,
    [at?.[0], at?.[1]], // eslint-disable-line react-hooks/exhaustive-deps -- the point, not its array
  );
  useGeoJsonLayer({ id: 'place-pin', slot: 'cursor', layers: LAYERS, data });
  return null;
}
