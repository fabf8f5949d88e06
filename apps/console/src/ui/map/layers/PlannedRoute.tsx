import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  {
    id: 'planned-area',
    type: 'fill',
    filter: ['==', ['geometry-type'], 'Polygon'],
    paint: { 'fill-color': C.planned, 'fill-opacity': 0.12 },
  },
  // the allowed width to scale: a line whose pixel width doubles per zoom level (w0 at zoom 0)
  {
    id: 'planned-width',
    type: 'line',
    filter: ['==', ['get', 'kind'], 'corridor'],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: {
      'line-color': C.planned,
      'line-opacity': 0.14,
      'line-width': ['interpolate', ['exponential', 2], ['zoom'], 0, ['get', 'w0'], 22, ['get', 'w22']],
    },
  },
  {
    id: 'planned-line',
    type: 'line',
    filter: ['==', ['geometry-type'], 'LineString'],
    paint: { 'line-color': C.planned, 'line-width': 2.5, 'line-dasharray': [2, 1.5] },
  },
  {
    id: 'planned-stops',
    type: 'circle',
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-radius': 5, 'circle-color': '#ffffff', 'circle-stroke-color': C.planned, 'circle-stroke-width': 2 },
  },
];

/** A planned corridor with its allowed width to scale, and its approved stop areas. */
export function PlannedRoute({ data }: { data: FeatureCollection | null }) {
  useGeoJsonLayer({ id: 'planned', slot: 'planned', layers: LAYERS, data });
  return null;
}
