import { useTranslation } from 'react-i18next';
import { positionsEndpoints } from '@corridor/contracts/positions-api';
import { urlOf } from '../../api/client';
import { endpoint } from '../../api/endpoint';

const FORMATS = [
  ['gpx', endpoint(positionsEndpoints, 'positions.gpx')],
  ['kml', endpoint(positionsEndpoints, 'positions.kml')],
  ['csv', endpoint(positionsEndpoints, 'positions.csv')],
] as const;

/** The replayed period's fixes as files: GPX and KML for map tools, CSV for spreadsheets (Traccar's /positions/{gpx,kml,csv}). */
export function ExportLinks({ deviceId, from, to }: { deviceId: number; from: string; to: string }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="replay-export-title">
      <h2 id="replay-export-title">{t('replay.export')}</h2>
      <p className="toolbar">
        {FORMATS.map(([name, def]) => (
          <a
            key={name}
            className="btn btn-small"
            href={urlOf(def, { query: { deviceId, from, to } })}
            download
            data-testid={`export-${name}`}
          >
            {t(`replay.exportAs.${name}`)}
          </a>
        ))}
      </p>
    </section>
  );
}
