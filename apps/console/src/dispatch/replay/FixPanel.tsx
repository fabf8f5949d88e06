import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Position } from '@corridor/contracts/positions';
import { useFormat } from '../../i18n/format';
import { useAddress } from '../../live/useAddress';

/** Attributes that the facts above already show, or that mean nothing to a dispatcher. */
const SHOWN = new Set(['motion', 'ignition', 'sat', 'alarm', 'hdop', 'distance', 'totalDistance', 'outdated', 'raw', 'rawFrameId']);

/** The fix under the replay's cursor: when, how fast, where (in words when known), and what the device reported with it. */
export const FixPanel = memo(function FixPanel({ fix }: { fix: Position }) {
  const { t } = useTranslation();
  const f = useFormat();
  const { address, pending } = useAddress(fix);
  const { ignition, sat, alarm } = fix.attributes ?? {};
  const attributes = Object.entries(fix.attributes ?? {}).filter(([k, v]) => !SHOWN.has(k) && v !== null && v !== '');
  return (
    <section className="card replay-fix" aria-labelledby="replay-fix-title" data-testid="replay-fix">
      <h2 id="replay-fix-title">{t('replay.fix')}</h2>
      <dl className="facts">
        <dt>{t('replay.time')}</dt>
        <dd data-testid="fix-time">{f.dateTimeSeconds(fix.fixTime)}</dd>
        <dt>{t('map.speed')}</dt>
        <dd>{f.speedKnots(fix.speed)}</dd>
        <dt>{t('replay.address')}</dt>
        <dd data-testid="fix-address" aria-busy={pending}>
          {address ?? (pending ? t('replay.addressLoading') : '—')}
        </dd>
        <dt>{t('map.position')}</dt>
        <dd data-testid="fix-position">{f.coordinates(fix.latitude, fix.longitude)}</dd>
        <dt>{t('replay.course')}</dt>
        <dd>{f.number(fix.course)}°</dd>
        {typeof ignition === 'boolean' && (
          <>
            <dt>{t('replay.ignition')}</dt>
            <dd>{ignition ? t('replay.on') : t('replay.off')}</dd>
          </>
        )}
        {typeof sat === 'number' && (
          <>
            <dt>{t('replay.satellites')}</dt>
            <dd>{f.number(sat)}</dd>
          </>
        )}
        {typeof alarm === 'string' && alarm !== '' && (
          <>
            <dt>{t('replay.alarm')}</dt>
            <dd>
              {alarm
                .split(',')
                .map((a) => t(`alarmType.${a}` as 'alarmType.sos', { defaultValue: a }))
                .join(', ')}
            </dd>
          </>
        )}
      </dl>
      {attributes.length > 0 && (
        <details>
          <summary>{t('replay.attributes', { count: attributes.length })}</summary>
          <dl className="facts small">
            {attributes.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="mono">{k}</dt>
                <dd>{typeof v === 'number' ? f.number(v, 3) : String(v)}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </section>
  );
});
