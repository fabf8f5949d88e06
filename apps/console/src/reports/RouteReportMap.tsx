import { useMemo } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FeatureCollection, LineString } from 'geojson';
import type { Position } from '@corridor/contracts/positions';
import { boundsOf } from '../ui/map/bounds';
import { CorridorMap } from '../ui/map/CorridorMap';
import { FitBounds } from '../ui/map/MapView';
import { TrackLine } from '../ui/map/layers/TrackLine';
import { useDeviceNames } from '../ui/lookups';

/** The route report on a map: each device's track, and a link to replay it over the same period. */
export function RouteReportMap({ rows, from, to }: { rows: readonly Position[]; from: string; to: string }) {
  const { t } = useTranslation();
  const name = useDeviceNames();
  const byDevice = useMemo(() => {
    const m = new Map<number, [number, number][]>();
    for (const p of rows) {
      let line = m.get(p.deviceId);
      if (!line) m.set(p.deviceId, (line = []));
      line.push([p.longitude, p.latitude]);
    }
    return m;
  }, [rows]);
  const tracks = useMemo<FeatureCollection<LineString>>(
    () => ({
      type: 'FeatureCollection',
      features: [...byDevice]
        .filter(([, l]) => l.length > 1)
        .map(([deviceId, coordinates]) => ({ type: 'Feature', properties: { deviceId }, geometry: { type: 'LineString', coordinates } })),
    }),
    [byDevice],
  );
  const bounds = useMemo(() => boundsOf([...byDevice.values()].flat()), [byDevice]);
  if (!rows.length) return null;
  return (
    <section className="card stack" aria-labelledby="route-map-title">
      <h2 id="route-map-title">{t('reports.routeMap')}</h2>
      <div className="map-box">
        <CorridorMap label={t('reports.routeMapLabel', { count: byDevice.size })}>
          <TrackLine data={tracks} />
          <FitBounds bounds={bounds} />
        </CorridorMap>
      </div>
      <ul className="toolbar" aria-label={t('reports.replayEach')}>
        {[...byDevice.keys()].map((id) => (
          <li key={id}>
            <Link className="btn btn-small" to={`/replay?${new URLSearchParams({ device: String(id), from, to })}`}>
              {t('reports.replayOf', { name: name(id) })}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
