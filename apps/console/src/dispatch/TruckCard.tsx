import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n/format';
import { useAddress } from '../live/useAddress';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { CommandDialog } from './commands/CommandDialog';
import { CommandLog } from './commands/CommandLog';
import { sendCommand } from './commands/command-endpoints';
import type { FleetRow } from './truck-features';

/** What the dispatcher sees about the selected truck, and what they can do with it. */
export function TruckCard({
  row,
  journeyId,
  follow,
  onFollow,
  onClose,
}: {
  row: FleetRow;
  journeyId?: number;
  follow: boolean;
  onFollow(on: boolean): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const [commanding, setCommanding] = useState(false);
  const p = row.position;
  // where it is in words: the address the server stored with the fix, else its reverse geocoder
  const { address, pending } = useAddress(p);
  return (
    <section className="map-card" aria-label={t('map.selectedTruck', { name: row.device.name })} data-testid="truck-card">
      <header>
        <h2>
          <span className={`dot dot-${row.state}`} aria-hidden="true" /> {row.device.name}
        </h2>
        <button type="button" className="btn btn-icon" onClick={onClose} aria-label={t('common.close')}>
          ×
        </button>
      </header>
      <dl className="facts">
        <dt>{t('map.state')}</dt>
        <dd data-testid="truck-state">{t(`truckState.${row.state}`)}</dd>
        <dt>{t('map.speed')}</dt>
        <dd>{row.state === 'moving' || row.state === 'stopped' ? f.speedKnots(p?.speed) : '—'}</dd>
        <dt>{t('map.lastFix')}</dt>
        <dd title={f.dateTime(p?.fixTime)}>{f.relative(p?.fixTime)}</dd>
        <dt>{t('map.position')}</dt>
        <dd data-testid="truck-position">{f.coordinates(p?.latitude, p?.longitude)}</dd>
        <dt>{t('replay.address')}</dt>
        <dd data-testid="truck-address" aria-busy={pending}>
          {address ?? (pending ? t('replay.addressLoading') : '—')}
        </dd>
        <dt>{t('map.uniqueId')}</dt>
        <dd>{row.device.uniqueId}</dd>
      </dl>
      <div className="toolbar">
        {p && (
          <button type="button" className="btn btn-small" aria-pressed={follow} onClick={() => onFollow(!follow)}>
            {follow ? t('map.following') : t('map.follow')}
          </button>
        )}
        <Link className="btn btn-small" to={`/replay?device=${row.device.id}`}>
          {t('map.replay')}
        </Link>
        {may(user, sendCommand) && (
          <button type="button" className="btn btn-small" onClick={() => setCommanding(true)}>
            {t('commands.send')}
          </button>
        )}
      </div>
      <CommandLog deviceId={row.device.id} />
      <CommandDialog device={row.device} open={commanding} onClose={() => setCommanding(false)} />
      {journeyId && (
        <p className="small mt-s">
          <Link to={`/journeys/${journeyId}`}>{t('map.openJourney')}</Link>
        </p>
      )}
    </section>
  );
}
