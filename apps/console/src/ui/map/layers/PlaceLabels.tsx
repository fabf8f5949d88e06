import { useMemo } from 'react';
import type { ExpressionSpecification } from 'maplibre-gl';
import type { PlaceKind } from '@corridor/geodata';
import { placePoints } from '../geodata-layers';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const kindIn = (...kinds: PlaceKind[]): ExpressionSpecification => ['in', ['get', 'kind'], ['literal', kinds]];

/** From which zoom each kind of place shows its name: ports and border posts first, parking last. */
const LABEL_ZOOM: [PlaceKind[], number][] = [
  [['port', 'border_post'], 5.5],
  [['inland_depot'], 6.5],
  [['weighbridge'], 7.5],
  [['parking'], 9],
];

const marker = (id: string, filter: ExpressionSpecification, minzoom: number): SourceLayer => ({
  id,
  type: 'circle',
  minzoom,
  filter,
  paint: {
    'circle-radius': ['match', ['get', 'kind'], 'port', 6, 'border_post', 5, 'inland_depot', 5, 4],
    'circle-color': ['match', ['get', 'kind'], 'weighbridge', '#fde68a', 'parking', '#e2e8f0', '#ffffff'],
    'circle-stroke-color': '#475569',
    'circle-stroke-width': 1.5,
  },
});

const LAYERS: SourceLayer[] = [
  marker('places', ['!', kindIn('parking')], 4),
  marker('places-parking', kindIn('parking'), 8),
  ...LABEL_ZOOM.map(([kinds, minzoom], i): SourceLayer => ({
    id: `place-labels-${i}`,
    type: 'symbol',
    minzoom,
    filter: kindIn(...kinds),
    layout: {
      'icon-image': ['concat', 'label:', ['get', 'name']],
      'icon-anchor': 'left',
      'icon-offset': [8, 0],
      'icon-allow-overlap': false,
    },
  })),
];

/**
 * Border posts, ports, inland depots, weighbridges and truck parking of packages/geodata: a marker
 * each, and its name from the zoom where the kind matters. Names are images drawn on a canvas
 * (label-images.ts): no glyph server, so the labels work offline.
 */
export function PlaceLabels() {
  const data = useMemo(placePoints, []);
  useGeoJsonLayer({ id: 'places', slot: 'places', layers: LAYERS, data });
  return null;
}
