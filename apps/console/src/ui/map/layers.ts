import type { ExpressionSpecification, LayerSpecification, Map as MapLibreMap, SourceSpecification } from 'maplibre-gl';
import { MAP_COLOURS as C } from './base-style';

/** The overlay sources the console updates in place, one per concern. */
export const SOURCES = ['countries', 'corridors', 'places', 'fences', 'planned', 'track', 'flags', 'draft', 'trucks'] as const;
export type OverlaySource = (typeof SOURCES)[number];

const empty = (): GeoJSON.FeatureCollection => ({ type: 'FeatureCollection', features: [] });

function source(id: OverlaySource): SourceSpecification {
  if (id === 'trucks') return { type: 'geojson', data: empty(), cluster: true, clusterMaxZoom: 8, clusterRadius: 36 };
  return { type: 'geojson', data: empty() };
}

const statusColour: ExpressionSpecification = [
  'match',
  ['get', 'state'],
  'moving', C.moving,
  'stopped', C.stopped,
  'offline', C.offline,
  C.unknown,
];

/** Layers in drawing order (bottom first). */
const LAYERS: LayerSpecification[] = [
  { id: 'countries-fill', type: 'fill', source: 'countries', paint: { 'fill-color': C.land } },
  { id: 'countries-line', type: 'line', source: 'countries', paint: { 'line-color': C.border, 'line-width': 0.8 } },
  { id: 'fences-fill', type: 'fill', source: 'fences', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': C.fence, 'fill-opacity': 0.15 } },
  {
    id: 'fences-band', type: 'line', source: 'fences', filter: ['==', ['get', 'corridor'], true],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': C.fence, 'line-opacity': 0.18, 'line-width': ['interpolate', ['exponential', 2], ['zoom'], 0, ['get', 'w0'], 22, ['get', 'w22']] },
  },
  { id: 'fences-line', type: 'line', source: 'fences', paint: { 'line-color': C.fence, 'line-width': ['case', ['boolean', ['get', 'selected'], false], 3, 1.5] } },
  { id: 'corridors', type: 'line', source: 'corridors', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': C.corridor, 'line-width': 2.5, 'line-opacity': 0.55 } },
  { id: 'planned-area', type: 'fill', source: 'planned', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': C.planned, 'fill-opacity': 0.12 } },
  // the allowed width to scale: a line whose pixel width doubles per zoom level (w0 at zoom 0)
  {
    id: 'planned-width', type: 'line', source: 'planned', filter: ['==', ['get', 'kind'], 'corridor'],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': C.planned, 'line-opacity': 0.14, 'line-width': ['interpolate', ['exponential', 2], ['zoom'], 0, ['get', 'w0'], 22, ['get', 'w22']] },
  },
  { id: 'planned-line', type: 'line', source: 'planned', filter: ['==', ['geometry-type'], 'LineString'], paint: { 'line-color': C.planned, 'line-width': 2.5, 'line-dasharray': [2, 1.5] } },
  { id: 'planned-stops', type: 'circle', source: 'planned', filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-radius': 5, 'circle-color': '#ffffff', 'circle-stroke-color': C.planned, 'circle-stroke-width': 2 } },
  { id: 'track', type: 'line', source: 'track', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': C.track, 'line-width': 2.5 } },
  {
    id: 'places', type: 'circle', source: 'places', minzoom: 4,
    paint: { 'circle-radius': ['match', ['get', 'kind'], 'port', 6, 'border_post', 5, 4], 'circle-color': '#ffffff', 'circle-stroke-color': '#475569', 'circle-stroke-width': 1.5 },
  },
  {
    id: 'place-labels', type: 'symbol', source: 'places', minzoom: 6,
    filter: ['in', ['get', 'kind'], ['literal', ['port', 'border_post', 'inland_depot']]],
    layout: { 'icon-image': ['concat', 'label:', ['get', 'name']], 'icon-anchor': 'left', 'icon-offset': [8, 0], 'icon-allow-overlap': false },
  },
  { id: 'draft-fill', type: 'fill', source: 'draft', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': C.fence, 'fill-opacity': 0.25 } },
  { id: 'draft-line', type: 'line', source: 'draft', paint: { 'line-color': C.fence, 'line-width': 2, 'line-dasharray': [1, 1] } },
  { id: 'draft-points', type: 'circle', source: 'draft', filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-radius': 4, 'circle-color': C.fence } },
  {
    id: 'flags', type: 'circle', source: 'flags',
    paint: {
      'circle-radius': ['case', ['boolean', ['get', 'selected'], false], 11, 8],
      'circle-color': C.flag,
      'circle-opacity': ['case', ['get', 'open'], 0.9, 0.4],
      'circle-stroke-color': ['case', ['boolean', ['get', 'selected'], false], '#0f172a', '#ffffff'],
      'circle-stroke-width': 2,
    },
  },
  {
    id: 'truck-clusters', type: 'circle', source: 'trucks', filter: ['has', 'point_count'],
    paint: { 'circle-color': C.cluster, 'circle-opacity': 0.85, 'circle-radius': ['step', ['get', 'point_count'], 12, 10, 16, 100, 22, 500, 28], 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 },
  },
  {
    id: 'truck-cluster-count', type: 'symbol', source: 'trucks', filter: ['has', 'point_count'],
    layout: { 'icon-image': ['concat', 'count:', ['get', 'point_count_abbreviated']], 'icon-allow-overlap': true, 'icon-ignore-placement': true },
  },
  {
    id: 'trucks', type: 'circle', source: 'trucks', filter: ['!', ['has', 'point_count']],
    paint: {
      'circle-radius': ['case', ['get', 'selected'], 9, 6],
      'circle-color': statusColour,
      'circle-stroke-color': ['case', ['get', 'flagged'], C.flag, '#ffffff'],
      'circle-stroke-width': ['case', ['get', 'flagged'], 3, 1.5],
    },
  },
];

/** Adds every overlay source and layer (once, after the style loaded). */
export function addOverlays(map: MapLibreMap): void {
  for (const id of SOURCES) if (!map.getSource(id)) map.addSource(id, source(id));
  for (const layer of LAYERS) if (!map.getLayer(layer.id)) map.addLayer(layer);
}

export const TRUCK_LAYERS = ['trucks', 'truck-clusters'] as const;
