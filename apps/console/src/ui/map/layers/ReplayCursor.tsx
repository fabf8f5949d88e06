import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  { id: 'replay-cursor-halo', type: 'circle', paint: { 'circle-radius': 13, 'circle-color': C.corridor, 'circle-opacity': 0.2 } },
  {
    id: 'replay-cursor',
    type: 'circle',
    paint: { 'circle-radius': 7, 'circle-color': C.corridor, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2.5 },
  },
];

/** Where the replayed truck is at the cursor's moment: one point, its data replaced each frame (one feature: cheap). */
export function ReplayCursor({ data }: { data: FeatureCollection | null }) {
  useGeoJsonLayer({ id: 'replay-cursor', slot: 'cursor', layers: LAYERS, data });
  return null;
}
