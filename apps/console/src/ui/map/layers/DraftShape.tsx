import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  { id: 'draft-fill', type: 'fill', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': C.fence, 'fill-opacity': 0.25 } },
  {
    id: 'draft-band',
    type: 'line',
    filter: ['==', ['get', 'corridor'], true],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: {
      'line-color': C.fence,
      'line-opacity': 0.18,
      'line-width': ['interpolate', ['exponential', 2], ['zoom'], 0, ['get', 'w0'], 22, ['get', 'w22']],
    },
  },
  { id: 'draft-line', type: 'line', paint: { 'line-color': C.fence, 'line-width': 2, 'line-dasharray': [1, 1] } },
  {
    id: 'draft-points',
    type: 'circle',
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-radius': 4, 'circle-color': C.fence },
  },
];

/** A shape being drawn (a geofence, a route): its points and outline as the user clicks. */
export function DraftShape({ data }: { data: FeatureCollection | null }) {
  useGeoJsonLayer({ id: 'draft', slot: 'draft', layers: LAYERS, data });
  return null;
}
