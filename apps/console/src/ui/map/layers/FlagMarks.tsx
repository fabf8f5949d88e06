import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

const LAYERS: SourceLayer[] = [
  {
    id: 'flags',
    type: 'circle',
    paint: {
      'circle-radius': ['case', ['boolean', ['get', 'selected'], false], 11, 8],
      'circle-color': C.flag,
      'circle-opacity': ['case', ['get', 'open'], 0.9, 0.4],
      'circle-stroke-color': ['case', ['boolean', ['get', 'selected'], false], '#0f172a', '#ffffff'],
      'circle-stroke-width': 2,
    },
  },
];

/** Journey flags where they were raised; open ones stand out, the selected one is ringed. A click names the flag (properties.flagId). */
export function FlagMarks({ data, onSelect }: { data: FeatureCollection | null; onSelect?: (flagId: number) => void }) {
  useGeoJsonLayer({
    id: 'flags',
    slot: 'flags',
    layers: LAYERS,
    data,
    onClick: onSelect
      ? (e) => {
          const id = Number(e.features?.[0]?.properties?.flagId);
          if (id) onSelect(id);
        }
      : undefined,
  });
  return null;
}
