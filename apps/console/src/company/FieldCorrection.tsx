import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CargoCorrection, IdfLineItem } from '@corridor/contracts/cargo';
import { useExplainError } from '../api/messages';

export type Correct = (body: CargoCorrection) => Promise<unknown>;
type ScalarKey = Exclude<keyof CargoCorrection, 'lineItems'>;

/**
 * One extracted value, correctable in place: "Correct" opens an input with the value, Save sends it
 * (the server checks it again and the review shows the new result), Cancel or Escape leaves it as is.
 */
export function CorrectableValue({
  field,
  label,
  value,
  shown,
  correct,
}: {
  field: ScalarKey;
  label: string;
  value: string | number | null;
  shown: ReactNode;
  correct?: Correct;
}) {
  const { t } = useTranslation();
  const explain = useExplainError();
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!correct) return <>{shown}</>;
  if (draft === null) {
    return (
      <span className="correctable">
        <span>{shown}</span>
        <button
          type="button"
          className="btn btn-small"
          aria-label={t('cargo.correctField', { field: label })}
          onClick={() => (setError(null), setDraft(value === null ? '' : String(value)))}
        >
          {t('cargo.correct')}
        </button>
      </span>
    );
  }
  const numeric = field === 'invoiceValue';
  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await correct!({ [field]: numeric ? Number(draft!.replace(/[\s,]/g, '')) : draft!.trim() });
      setDraft(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const errorId = `correct-${field}-error`;
  // the field's own problem (worded, under the input), else the whole refusal in one sentence
  const explained = error ? explain(error, { [field]: label }) : null;
  const problem = explained ? (explained.problems.find((p) => p.path === field)?.problem ?? explained.summary) : '';
  return (
    <form
      className="correct-form"
      aria-label={t('cargo.correctField', { field: label })}
      onSubmit={(e) => void save(e)}
      onKeyDown={(e) => e.key === 'Escape' && setDraft(null)}
    >
      <input
        aria-label={label}
        value={draft}
        required
        autoFocus
        inputMode={numeric ? 'decimal' : undefined}
        pattern={numeric ? '[0-9][0-9,]*(\\.[0-9]+)?' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => setDraft(e.target.value)}
      />
      <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
        {busy ? t('common.saving') : t('common.save')}
      </button>
      <button type="button" className="btn btn-small" onClick={() => setDraft(null)}>
        {t('common.cancel')}
      </button>
      {error ? (
        <small className="field-error" id={errorId} role="alert">
          {problem}
        </small>
      ) : null}
    </form>
  );
}

type Row = { hsCode: string; description: string; quantity: string; unit: string; value: string };
const toRow = (li: IdfLineItem): Row => ({
  hsCode: li.hsCode,
  description: li.description,
  quantity: String(li.quantity),
  unit: li.unit,
  value: String(li.value),
});
const amount = (s: string) => Number(s.replace(/[\s,]/g, ''));

/** The line items as a form: each cell an input; Save sends them all (the totals are checked again). */
export function LineItemsEditor({ items, correct, onDone }: { items: IdfLineItem[]; correct: Correct; onDone: () => void }) {
  const { t } = useTranslation();
  const explain = useExplainError();
  const [rows, setRows] = useState<Row[]>(() => items.map(toRow));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const set = (i: number, k: keyof Row, v: string) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, [k]: v } : r)));
  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await correct({
        lineItems: rows.map((r) => ({
          hsCode: r.hsCode.trim(),
          description: r.description.trim(),
          quantity: amount(r.quantity),
          unit: r.unit.trim(),
          value: amount(r.value),
        })),
      });
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const cols: [keyof Row, string, boolean][] = [
    ['hsCode', t('cargo.hsCode'), false],
    ['description', t('cargo.description'), false],
    ['quantity', t('cargo.quantity'), true],
    ['unit', t('cargo.unit'), false],
    ['value', t('cargo.value'), true],
  ];
  return (
    <form onSubmit={(e) => void save(e)} aria-label={t('cargo.correctLineItems')} onKeyDown={(e) => e.key === 'Escape' && onDone()}>
      <div className="table-wrap mt-s">
        <table className="data">
          <caption className="sr-only">{t('cargo.lineItems')}</caption>
          <thead>
            <tr>
              {cols.map(([k, label, num]) => (
                <th key={k} scope="col" className={num ? 'num' : undefined}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {cols.map(([k, label, num]) => (
                  <td key={k}>
                    <input
                      className={num ? 'num' : undefined}
                      aria-label={t('cargo.lineCell', { line: i + 1, field: label })}
                      value={r[k]}
                      required={k !== 'description'}
                      inputMode={num ? 'decimal' : undefined}
                      pattern={num ? '[0-9][0-9,]*(\\.[0-9]+)?' : undefined}
                      onChange={(e) => set(i, k, e.target.value)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row mt-s">
        <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
          {busy ? t('common.saving') : t('common.save')}
        </button>
        <button type="button" className="btn btn-small" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {explain(error, { lineItems: t('cargo.lineItems') }).summary}
        </p>
      ) : null}
    </form>
  );
}
