import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { MARK_COLOURS } from '../../ui/map/layers/ReplayMarks';
import type { ReplayMark } from './replay-model';
import { SPEEDS, type ReplayClock, type Speed } from './useReplayClock';

/** Play or pause, the speed, and the time slider with the period's marks along it. */
export function ReplayControls({
  clock,
  start,
  end,
  marks,
}: {
  clock: ReplayClock;
  start: number;
  end: number;
  marks: readonly ReplayMark[];
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const span = Math.max(1, end - start);
  return (
    <div className="replay-controls" role="group" aria-label={t('replay.controls')}>
      <button
        type="button"
        className="btn btn-primary replay-play"
        onClick={clock.playing ? clock.pause : clock.play}
        data-testid="replay-play"
      >
        {clock.playing ? t('replay.pause') : t('replay.play')}
      </button>
      <label className="replay-speed">
        <span>{t('replay.speed')}</span>
        <select value={clock.speed} onChange={(e) => clock.setSpeed(Number(e.target.value) as Speed)}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {t('replay.times', { speed: f.number(s) })}
            </option>
          ))}
        </select>
      </label>
      <div className="replay-timeline">
        <TimelineMarks marks={marks} start={start} span={span} />
        <input
          type="range"
          min={start}
          max={end}
          step={1000}
          value={clock.time}
          onChange={(e) => clock.seek(Number(e.target.value))}
          aria-label={t('replay.position')}
          aria-valuetext={f.dateTimeSeconds(new Date(clock.time).toISOString())}
          data-testid="replay-slider"
        />
        <div className="replay-ends small muted" aria-hidden="true">
          <span>{f.dateTime(new Date(start).toISOString())}</span>
          <span>{f.dateTime(new Date(end).toISOString())}</span>
        </div>
      </div>
      <output className="replay-time" aria-live="off" data-testid="replay-time">
        {f.dateTimeSeconds(new Date(clock.time).toISOString())}
      </output>
    </div>
  );
}

/** The marks along the slider (the list beside the map is their accessible form: these are pictures). */
const TimelineMarks = memo(function TimelineMarks({ marks, start, span }: { marks: readonly ReplayMark[]; start: number; span: number }) {
  return (
    <div className="replay-marks" aria-hidden="true">
      {marks.map((m) => {
        const left = ((m.time - start) / span) * 100;
        const width = m.end !== undefined ? Math.max(0.4, ((m.end - m.time) / span) * 100) : undefined;
        return (
          <span
            key={m.id}
            className={`replay-mark replay-mark-${m.kind}`}
            style={{ left: `${left}%`, width: width === undefined ? undefined : `${width}%`, background: MARK_COLOURS[m.kind] }}
          />
        );
      })}
    </div>
  );
});
