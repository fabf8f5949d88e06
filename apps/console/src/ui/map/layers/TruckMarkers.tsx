import type { ExpressionSpecification, GeoJSONSource } from 'maplibre-gl';
import type { FeatureCollection, Point } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const statusColour: ExpressionSpecification = [
  'match',
  ['get', 'state'],
  'moving',
  C.moving,
  'stopped',
  C.stopped,
  'offline',
  C.offline,
  C.unknown,
];

/**
 * Clusters: three trucks or more within 30 px, up to zoom 8. Pairs stay two trucks (a "2" bubble
 * hides which trucks and where, and at the opening zoom most trucks of the corridors travel in
 * pairs or alone); from zoom 9 every truck is its own marker.
 */
const TRUCK_CLUSTERS = { cluster: true, clusterMaxZoom: 8, clusterRadius: 30, clusterMinPoints: 3 } as const;

const LAYERS: SourceLayer[] = [
  {
    id: 'truck-clusters',
    type: 'circle',
    filter: ['has', 'point_count'],
    paint: {
      'circle-color': C.cluster,
      'circle-opacity': 0.85,
      'circle-radius': ['step', ['get', 'point_count'], 12, 10, 16, 100, 22, 500, 28],
      'circle-stroke-color': '#fff',
      'circle-stroke-width': 2,
    },
  },
  {
    id: 'truck-cluster-count',
    type: 'symbol',
    filter: ['has', 'point_count'],
    layout: {
      'icon-image': ['concat', 'count:', ['get', 'point_count_abbreviated']],
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
    },
  },
  {
    id: 'trucks',
    type: 'circle',
    filter: ['!', ['has', 'point_count']],
    paint: {
      'circle-radius': ['case', ['get', 'selected'], 9, 6],
      'circle-color': statusColour,
      'circle-stroke-color': ['case', ['get', 'flagged'], C.flag, ['get', 'selected'], '#0f172a', '#ffffff'],
      'circle-stroke-width': ['case', ['get', 'flagged'], 3, ['get', 'selected'], 2.5, 1.5],
    },
  },
];
const CLICKABLE = ['trucks', 'truck-clusters'];

/**
 * Every truck coloured by its state, clustered when zoomed out. A truck's click selects it; a
 * cluster's zooms in to where it splits.
 */
export function TruckMarkers({ data, onSelect }: { data: FeatureCollection<Point>; onSelect?: (deviceId: number) => void }) {
  useGeoJsonLayer({
    id: 'trucks',
    slot: 'trucks',
    layers: LAYERS,
    source: TRUCK_CLUSTERS,
    data,
    clickLayers: CLICKABLE,
    onClick: (e, map) => {
      const f = e.features?.[0];
      if (!f) return;
      if (f.layer.id === 'trucks') {
        const id = Number(f.properties?.deviceId);
        if (id) onSelect?.(id);
        return;
      }
      if (f.geometry.type !== 'Point') return;
      const center = f.geometry.coordinates as [number, number];
      void (map.getSource('trucks') as GeoJSONSource)
        .getClusterExpansionZoom(Number(f.properties?.cluster_id))
        .then((zoom) => map.easeTo({ center, zoom: Math.min(zoom + 0.5, TRUCK_CLUSTERS.clusterMaxZoom + 1) }));
    },
  });
  return null;
}
