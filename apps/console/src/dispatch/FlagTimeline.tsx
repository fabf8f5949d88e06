import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JourneyFlag } from '@corridor/contracts/journeys';
import { useApiMutation } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { wordAddress } from '../live/useAddress';
import { NoteDialog } from '../ui/NoteDialog';
import { StatusPill } from '../ui/StatusPill';
import { journeyEndpoints } from './journeys';

type Action = { kind: 'acknowledge' | 'resolve'; flag: JourneyFlag } | null;

/** The journey's flags in order, each with its review state and the acknowledge and resolve actions. */
export function FlagTimeline({
  flags,
  canReview,
  selected,
  onSelect,
  fresh,
}: {
  flags: JourneyFlag[];
  canReview: boolean;
  selected: number | null;
  onSelect: (id: number) => void;
  fresh: ReadonlySet<number>;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const [action, setAction] = useState<Action>(null);
  const acknowledge = useApiMutation(journeyEndpoints.acknowledge, { invalidates: ['journeys.'] });
  const resolve = useApiMutation(journeyEndpoints.resolve, { invalidates: ['journeys.'] });
  if (!flags.length) return <p className="muted">{t('journey.noFlags')}</p>;
  return (
    <>
      <ol className="timeline" aria-label={t('journey.flags')}>
        {flags.map((fl) => {
          const open = fl.clearedAt === null && fl.review !== 'resolved';
          return (
            <li key={fl.id} className={[open ? 'open' : '', fresh.has(fl.id) ? 'fresh' : ''].join(' ')} data-testid={`flag-${fl.type}`}>
              <div className="row">
                <button type="button" className="link-button" onClick={() => onSelect(fl.id)} aria-pressed={selected === fl.id}>
                  <strong>{t(`flagType.${fl.type}`)}</strong>
                </button>
                <StatusPill value={fl.review} />
                {/* what the truck is doing about it, while the flag is still to be dealt with: a resolved flag is closed, whatever the truck does */}
                {fl.review !== 'resolved' &&
                  (fl.clearedAt ? (
                    <span className="pill">{t('journey.cleared')}</span>
                  ) : (
                    <span className="pill pill-bad">{t('journey.ongoing')}</span>
                  ))}
                {fl.escalated && fl.review !== 'resolved' && <span className="pill pill-bad">{t('journey.escalated')}</span>}
              </div>
              <div className="small muted">
                {t('journey.openedAt', { time: f.dateTime(fl.openedAt) })}
                {fl.clearedAt && ` · ${t('journey.clearedAt', { time: f.dateTime(fl.clearedAt) })}`}
                {fl.distanceM !== null && ` · ${t('journey.offBy', { distance: f.distance(fl.distanceM) })}`}
              </div>
              {/* where it opened, in words (the server's offline geocoder): the map alone does not say it */}
              {/* the server's English address, worded in the reader's language */}
              {fl.address && <div className="small">{wordAddress(fl.address, t, f)}</div>}
              <FlagDetails flag={fl} />
              {fl.acknowledgedAt && (
                <div className="small">
                  {t('journey.acknowledgedNote', { time: f.dateTime(fl.acknowledgedAt), note: fl.acknowledgedNote ?? '—' })}
                </div>
              )}
              {fl.resolvedAt && (
                <div className="small">{t('journey.resolvedNote', { time: f.dateTime(fl.resolvedAt), note: fl.resolvedNote ?? '—' })}</div>
              )}
              {canReview && fl.review !== 'resolved' && (
                <div className="toolbar mt-s">
                  {fl.review === 'new' && (
                    <button type="button" className="btn btn-small" onClick={() => setAction({ kind: 'acknowledge', flag: fl })}>
                      {t('journey.acknowledge')}
                    </button>
                  )}
                  <button type="button" className="btn btn-small" onClick={() => setAction({ kind: 'resolve', flag: fl })}>
                    {t('journey.resolve')}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <NoteDialog
        open={action !== null}
        title={
          action
            ? t(action.kind === 'acknowledge' ? 'journey.acknowledgeTitle' : 'journey.resolveTitle', {
                type: t(`flagType.${action.flag.type}`),
              })
            : ''
        }
        noteLabel={t('journey.note')}
        noteRequired={action?.kind === 'resolve'}
        confirm={action?.kind === 'resolve' ? t('journey.resolve') : t('journey.acknowledge')}
        onClose={() => setAction(null)}
        onConfirm={(note) =>
          action!.kind === 'acknowledge'
            ? acknowledge.mutateAsync({ params: { flagId: action!.flag.id }, body: note ? { note } : {} })
            : resolve.mutateAsync({ params: { flagId: action!.flag.id }, body: { note } })
        }
      />
    </>
  );
}

/** The detector's figures that matter to a dispatcher. */
function FlagDetails({ flag }: { flag: JourneyFlag }) {
  const { t } = useTranslation();
  const f = useFormat();
  const d = flag.details as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof d.speedKmh === 'number')
    parts.push(t('journey.speedOverLimit', { speed: f.speedKmh(d.speedKmh), limit: f.speedKmh(Number(d.limitKmh)) }));
  if (typeof d.durationS === 'number') parts.push(t('journey.duration', { duration: f.duration(d.durationS) }));
  if (typeof d.lastFix === 'string') parts.push(t('journey.lastFix', { time: f.dateTime(d.lastFix) }));
  return parts.length ? <div className="small">{parts.join(' · ')}</div> : null;
}
