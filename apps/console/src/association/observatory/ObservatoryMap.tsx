import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ObservatoryOverview } from '@corridor/contracts/observatory';
import { CorridorMap } from '../../ui/map/CorridorMap';
import { useGeoJsonLayer, type SourceLayer } from '../../ui/map/useGeoJsonLayer';
import { NO_SPEED_COLOUR, placeFeatures, segmentFeatures, SPEED_CLASSES } from './observatory';

const SEGMENT_LAYERS: SourceLayer[] = [
  {
    id: 'obs-segments',
    type: 'line',
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': ['get', 'colour'], 'line-width': 6, 'line-opacity': 0.9 },
  },
];
const PLACE_LAYERS: SourceLayer[] = [
  {
    id: 'obs-places',
    type: 'circle',
    paint: {
      'circle-radius': ['get', 'radius'],
      'circle-color': '#7c3aed',
      'circle-opacity': 0.45,
      'circle-stroke-color': '#4c1d95',
      'circle-stroke-width': 1.5,
    },
  },
];

function Segments({ data }: { data: ReturnType<typeof segmentFeatures> }) {
  useGeoJsonLayer({ id: 'obs-segments', slot: 'track', layers: SEGMENT_LAYERS, data });
  return null;
}
function Places({ data }: { data: ReturnType<typeof placeFeatures> }) {
  useGeoJsonLayer({ id: 'obs-places', slot: 'places', layers: PLACE_LAYERS, data });
  return null;
}

/** The corridors over the period: segments coloured by transit speed, places sized by their median wait. */
export function ObservatoryMap({ overview }: { overview: ObservatoryOverview }) {
  const { t } = useTranslation();
  // a company sees its own trucks on the map; the association everyone's (or the company it chose)
  const series = overview.companyId === null ? 'all' : 'company';
  const segments = useMemo(() => segmentFeatures(overview, series), [overview, series]);
  const places = useMemo(() => placeFeatures(overview, series), [overview, series]);
  return (
    <div className="map-box obs-map">
      <CorridorMap label={t('observatory.mapLabel', { segments: segments.features.length, places: places.features.length })}>
        <Segments data={segments} />
        <Places data={places} />
        <ul className="map-legend" aria-label={t('map.legend')}>
          {SPEED_CLASSES.map((c, i) => (
            <li key={c.min}>
              <span className="swatch" style={{ background: c.colour }} aria-hidden="true" />{' '}
              {i + 1 < SPEED_CLASSES.length
                ? t('observatory.speedBetween', { from: c.min, to: SPEED_CLASSES[i + 1]!.min })
                : t('observatory.speedOver', { from: c.min })}
            </li>
          ))}
          <li>
            <span className="swatch" style={{ background: NO_SPEED_COLOUR }} aria-hidden="true" /> {t('observatory.noTrips')}
          </li>
          <li>
            <span className="dot obs-place-dot" aria-hidden="true" /> {t('observatory.placeSize')}
          </li>
        </ul>
      </CorridorMap>
    </div>
  );
}
