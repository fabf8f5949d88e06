import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import type { ReplayMark } from './replay-model';

/** What one mark was, in words: a stop and its length, an event or alarm, a flag and its review. */
function useMarkLabel() {
  const { t } = useTranslation();
  const f = useFormat();
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  return (m: ReplayMark): string => {
    if (m.kind === 'stop') return t('replay.stopFor', { duration: f.duration(((m.end ?? m.time) - m.time) / 1000) });
    if (m.kind === 'flag')
      return `${tt(`flagType.${m.what}`, { defaultValue: m.what })}${m.detail ? ` · ${tt(`status.${m.detail}`, { defaultValue: m.detail })}` : ''}`;
    if (m.kind === 'alarm' && m.detail)
      return `${t('eventType.alarm')}: ${m.detail
        .split(',')
        .map((a) => tt(`alarmType.${a}`, { defaultValue: a }))
        .join(', ')}`;
    return tt(`eventType.${m.what}`, { defaultValue: m.what });
  };
}

/** The period's marks in order, each a button that moves the replay there; the ones already passed are dimmed. */
export const MarkList = memo(function MarkList({
  marks,
  now,
  onPick,
}: {
  marks: readonly ReplayMark[];
  now: number;
  onPick(time: number): void;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const label = useMarkLabel();
  // re-rendered each frame only through `now`: the passed line is found by a cheap comparison per mark
  return (
    <section className="card replay-list" aria-labelledby="replay-marks-title">
      <h2 id="replay-marks-title">{t('replay.marks', { count: marks.length })}</h2>
      {marks.length === 0 ? (
        <p className="muted small">{t('replay.noMarks')}</p>
      ) : (
        <ol className="mark-list">
          {marks.map((m) => (
            <li key={m.id} className={m.time <= now ? 'passed' : undefined}>
              <button type="button" className="link-button" onClick={() => onPick(m.time)} data-testid={`mark-${m.kind}`}>
                <span className={`dot dot-mark-${m.kind}`} aria-hidden="true" />
                <span className="mark-time">{f.dateTime(new Date(m.time).toISOString())}</span> {label(m)}
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
});
