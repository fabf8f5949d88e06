import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Event } from '@corridor/contracts/events';
import { useFormat } from '../../i18n/format';
import { useDeviceNames } from '../../ui/lookups';
import { useAddress } from '../useAddress';
import { playAlertSound, setSoundMuted, soundMuted } from './alert-sound';
import { dismissAlert, useAlerts, type Alert } from './alerts';
import './alerts.css';

/** At most this many pop-ups at once; the rest wait behind a count. */
const SHOWN = 3;
const MINUTE = 60_000;

/** What happened, in the user's language: the alarm's names, else the event type. */
function useEventTitle() {
  const { t } = useTranslation();
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  return (e: Event): string => {
    const alarm = typeof e.attributes.alarm === 'string' ? e.attributes.alarm : '';
    if (e.type === 'alarm' && alarm)
      return alarm
        .split(',')
        .map((a) => tt(`alarmType.${a}`, { defaultValue: a }))
        .join(', ');
    if (e.type === 'journeyFlagOpened' && typeof e.attributes.flagType === 'string')
      return tt(`flagType.${e.attributes.flagType}`, { defaultValue: e.attributes.flagType });
    return tt(`eventType.${e.type}`, { defaultValue: e.type });
  };
}

/** Where on the live map an event happened: its truck chosen, its place marked. */
function eventMapLink(e: Event): string {
  const q = new URLSearchParams({ device: String(e.deviceId) });
  if (e.latitude !== null && e.longitude !== null) q.set('at', `${e.latitude},${e.longitude}`);
  return `/map?${q}`;
}

/** The replay of the half hour before an event and a few minutes after it. */
function eventReplayLink(e: Event): string {
  const t = Date.parse(e.eventTime);
  return `/replay?${new URLSearchParams({ device: String(e.deviceId), from: new Date(t - 30 * MINUTE).toISOString(), to: new Date(t + 5 * MINUTE).toISOString() })}`;
}

/**
 * The alerts of the user's notification rules (their web channel) as they arrive: a pop-up each
 * (newest on top, three at most), a sound unless muted, and links to the place on the map and to
 * the replay around it. Dismissed, an alert is gone from the screen.
 */
export function AlertCenter() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: alerts } = useAlerts();
  const open = alerts.filter((a) => !a.dismissed);
  const newest = open[0]?.event.id;
  useEffect(() => {
    if (newest !== undefined) playAlertSound();
  }, [newest]);
  if (!open.length) return null;
  return (
    <section className="alerts" aria-label={t('alerts.title')}>
      <ol>
        {open.slice(0, SHOWN).map((a) => (
          <AlertCard key={a.event.id} alert={a} onDismiss={() => dismissAlert(client, a.event.id)} />
        ))}
      </ol>
      {open.length > SHOWN && (
        <p className="alerts-more">
          {t('alerts.more', { count: open.length - SHOWN })}{' '}
          <button type="button" className="link-button" onClick={() => dismissAlert(client, 'all')}>
            {t('alerts.dismissAll')}
          </button>
        </p>
      )}
    </section>
  );
}

function AlertCard({ alert, onDismiss }: { alert: Alert; onDismiss(): void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const title = useEventTitle();
  const device = useDeviceNames();
  const e = alert.event;
  const { address, pending } = useAddress(e, 0);
  const urgent = e.type === 'alarm';
  return (
    // announced as an alert by the element inside the item: a list item with another role breaks the list (axe)
    <li className={urgent ? 'alert alert-urgent' : 'alert'} data-testid="alert">
      <div role="alert">
        <div className="alert-head">
          <strong>{title(e)}</strong>
          <button type="button" className="btn btn-icon" onClick={onDismiss} aria-label={t('alerts.dismiss', { what: title(e) })}>
            ×
          </button>
        </div>
        <p className="alert-what">
          {device(e.deviceId)} · <time dateTime={e.eventTime}>{f.dateTimeSeconds(e.eventTime)}</time>
        </p>
        <p className="alert-where" data-testid="alert-address">
          {address ?? (pending ? t('replay.addressLoading') : t('alerts.noPlace'))}
        </p>
        <p className="alert-links">
          <Link to={eventMapLink(e)} onClick={onDismiss}>
            {t('alerts.onMap')}
          </Link>
          <Link to={eventReplayLink(e)} onClick={onDismiss}>
            {t('alerts.replay')}
          </Link>
        </p>
      </div>
    </li>
  );
}

/** The top bar's switch for the alerts' sound, remembered in this browser. */
export function AlertSoundSwitch() {
  const { t } = useTranslation();
  const [muted, setMuted] = useState(soundMuted);
  return (
    <button
      type="button"
      className="btn btn-icon alert-sound"
      aria-pressed={muted}
      title={muted ? t('alerts.soundOff') : t('alerts.soundOn')}
      onClick={() => {
        setSoundMuted(!muted);
        setMuted(!muted);
      }}
      data-testid="alert-sound"
    >
      <svg
        aria-hidden="true"
        width="18"
        height="18"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.7 21a2 2 0 0 1-3.4 0" />
        {muted && <path d="M3 3l18 18" />}
      </svg>
      <span className="sr-only">{t('alerts.mute')}</span>
    </button>
  );
}
