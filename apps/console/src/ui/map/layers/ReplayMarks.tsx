import type { FeatureCollection } from 'geojson';
import { MAP_COLOURS as C } from '../base-style';
import { useGeoJsonLayer, type SourceLayer } from '../useGeoJsonLayer';

/** Colour of each kind of mark, shared with the timeline's marks. */
export const MARK_COLOURS = { stop: C.stopped, event: '#7c3aed', alarm: C.flag, flag: C.flag } as const;
export type MarkKind = keyof typeof MARK_COLOURS;

const LAYERS: SourceLayer[] = [
  {
    id: 'replay-marks',
    type: 'circle',
    paint: {
      'circle-radius': ['match', ['get', 'kind'], 'stop', 7, 'flag', 8, 5],
      'circle-color': [
        'match',
        ['get', 'kind'],
        'stop',
        MARK_COLOURS.stop,
        'alarm',
        MARK_COLOURS.alarm,
        'flag',
        MARK_COLOURS.flag,
        MARK_COLOURS.event,
      ],
      'circle-opacity': ['case', ['boolean', ['get', 'passed'], false], 0.45, 0.9],
      'circle-stroke-color': '#ffffff',
      'circle-stroke-width': 1.5,
    },
  },
];

/** Stops, events and flags of a replay where they happened; a click jumps the replay there (properties.time, ms). */
export function ReplayMarks({ data, onPick }: { data: FeatureCollection | null; onPick?: (time: number) => void }) {
  useGeoJsonLayer({
    id: 'replay-marks',
    slot: 'marks',
    layers: LAYERS,
    data,
    onClick: onPick
      ? (e) => {
          const time = Number(e.features?.[0]?.properties?.time);
          if (Number.isFinite(time)) onPick(time);
        }
      : undefined,
  });
  return null;
}
