import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  { id: 'fences-fill', type: 'fill', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': C.fence, 'fill-opacity': 0.15 } },
  {
    id: 'fences-band',
    type: 'line',
    filter: ['==', ['get', 'corridor'], true],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: {
      'line-color': C.fence,
      'line-opacity': 0.18,
      'line-width': ['interpolate', ['exponential', 2], ['zoom'], 0, ['get', 'w0'], 22, ['get', 'w22']],
    },
  },
  {
    id: 'fences-line',
    type: 'line',
    paint: { 'line-color': C.fence, 'line-width': ['case', ['boolean', ['get', 'selected'], false], 3, 1.5] },
  },
];

/** Geofences: polygons, circles and corridor bands to scale; the selected one drawn heavier. */
export function GeofenceShapes({ data }: { data: FeatureCollection | null }) {
  useGeoJsonLayer({ id: 'fences', slot: 'fences', layers: LAYERS, data });
  return null;
}
