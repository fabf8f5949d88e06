import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  {
    id: 'track-casing',
    type: 'line',
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#ffffff', 'line-width': 5, 'line-opacity': 0.7 },
  },
  { id: 'track', type: 'line', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': C.track, 'line-width': 2.5 } },
];

const CLICKABLE = ['track'];

/** The track a truck drove (a journey's, a replay's, a route report's), one line per feature; a click on it gives the point clicked. */
export function TrackLine({ data, onPick }: { data: FeatureCollection | null; onPick?: (lngLat: [number, number]) => void }) {
  useGeoJsonLayer({
    id: 'track',
    slot: 'track',
    layers: LAYERS,
    data,
    clickLayers: CLICKABLE,
    onClick: onPick ? (e) => onPick([e.lngLat.lng, e.lngLat.lat]) : undefined,
  });
  return null;
}
