import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n/format';

export interface StatusChange {
  from: string | null;
  to: string;
  at: string;
  by: { email: string };
  reason?: string | null;
}

/** A record's moves from state to state, oldest first: who, when, and why where a reason was given; `word` names a state (default: the `status` catalogue). */
export function StatusHistory({ id, history, word }: { id: string; history: readonly StatusChange[]; word?: (state: string) => string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const label = word ?? ((s: string) => t(`status.${s}` as 'status.draft', { defaultValue: s }));
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{t('shipments.history')}</h2>
      <ol className="timeline">
        {history.map((h, i) => (
          <li key={i}>
            {h.from ? `${label(h.from)} → ` : ''}
            <strong>{label(h.to)}</strong>
            <div className="small muted">
              {f.dateTime(h.at)} · {h.by.email}
            </div>
            {h.reason && <div className="small">{h.reason}</div>}
          </li>
        ))}
      </ol>
    </section>
  );
}
