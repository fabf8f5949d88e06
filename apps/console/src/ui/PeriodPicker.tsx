import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromLocalInput, localInput } from './forms';

export interface Period {
  from: string;
  to: string;
}

/** A period ending now, `days` long, kept in state. */
export function usePeriod(days: number): [Period, (p: Period) => void] {
  return useState<Period>(() => {
    const to = new Date();
    return { from: new Date(to.getTime() - days * 86_400_000).toISOString(), to: to.toISOString() };
  });
}

const PRESETS = [1, 7, 30, 90] as const;

/** From / to with quick choices (today, 7, 30, 90 days). */
export function PeriodPicker({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(localInput(value.from));
  const [to, setTo] = useState(localInput(value.to));
  const preset = (days: number) => {
    const end = new Date();
    const p = { from: new Date(end.getTime() - days * 86_400_000).toISOString(), to: end.toISOString() };
    setFrom(localInput(p.from));
    setTo(localInput(p.to));
    onChange(p);
  };
  return (
    <form
      className="filters"
      aria-label={t('period.label')}
      onSubmit={(e) => {
        e.preventDefault();
        const f = fromLocalInput(from);
        const tt = fromLocalInput(to);
        if (f && tt) onChange({ from: f, to: tt });
      }}
    >
      <label className="field">
        <span>{t('common.from')}</span>
        <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} required />
      </label>
      <label className="field">
        <span>{t('common.to')}</span>
        <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} required />
      </label>
      <button type="submit" className="btn">
        {t('common.apply')}
      </button>
      <span className="toolbar">
        {PRESETS.map((d) => (
          <button key={d} type="button" className="btn btn-small" onClick={() => preset(d)}>
            {t('period.lastDays', { count: d })}
          </button>
        ))}
      </span>
    </form>
  );
}
