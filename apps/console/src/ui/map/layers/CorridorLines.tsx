import { useMemo } from 'react';
import { MAP_COLOURS as C } from '../base-style';
import { corridorLines } from '../geodata-layers';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  {
    id: 'corridors',
    type: 'line',
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': C.corridor, 'line-width': 2.5, 'line-opacity': 0.55 },
  },
];

/** The Northern and Central Corridors of packages/geodata. */
export function CorridorLines() {
  const data = useMemo(corridorLines, []);
  useGeoJsonLayer({ id: 'corridors', slot: 'corridors', layers: LAYERS, data });
  return null;
}
