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

/**
 * From / to with quick choices (today, 7, 30, 90 days): a group of fields, not a form of its own,
 * so it sits inside a screen's form (a report's); a complete date applies at once.
 */
export function PeriodPicker({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(localInput(value.from));
  const [to, setTo] = useState(localInput(value.to));
  const apply = (nextFrom: string, nextTo: string) => {
    setFrom(nextFrom);
    setTo(nextTo);
    const f = fromLocalInput(nextFrom);
    const tt = fromLocalInput(nextTo);
    if (f && tt) onChange({ from: f, to: tt });
  };
  const preset = (days: number) => {
    const end = new Date();
    apply(localInput(new Date(end.getTime() - days * 86_400_000).toISOString()), localInput(end.toISOString()));
  };
  return (
    <fieldset className="filters period">
      <legend className="sr-only">{t('period.label')}</legend>
      <label className="field">
        <span>{t('common.from')}</span>
        <input type="datetime-local" value={from} onChange={(e) => apply(e.target.value, to)} required />
      </label>
      <label className="field">
        <span>{t('common.to')}</span>
        <input type="datetime-local" value={to} onChange={(e) => apply(from, e.target.value)} required />
      </label>
      <span className="toolbar">
        {PRESETS.map((d) => (
          <button key={d} type="button" className="btn btn-small" onClick={() => preset(d)}>
            {t('period.lastDays', { count: d })}
          </button>
        ))}
      </span>
    </fieldset>
  );
}
