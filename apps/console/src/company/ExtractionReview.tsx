import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IdfExtraction } from '@corridor/contracts/cargo';
import { useFormat } from '../i18n/format';
import { CorrectableValue, LineItemsEditor, type Correct } from './FieldCorrection';

type Field = IdfExtraction['fields'][keyof IdfExtraction['fields']];
const FIELDS = [
  'idfNumber',
  'importerName',
  'importerPin',
  'consignor',
  'countryOfOrigin',
  'portOfDischarge',
  'currency',
  'invoiceValue',
] as const;

function Check({ field }: { field: Pick<Field, 'valid' | 'confidence'> }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <span className="row">
      {field.valid === true && <span className="pill pill-ok">{t('cargo.valid')}</span>}
      {field.valid === false && <span className="pill pill-bad">{t('cargo.invalid')}</span>}
      <span className="confidence" title={t('cargo.confidence')}>
        <span className="sr-only">{t('cargo.confidence')} </span>
        {f.number(field.confidence * 100)}%
      </span>
    </span>
  );
}

/**
 * What was read from the IDF: each field beside its checks and issues, then the line items. With
 * `correct` (a submitted cargo, a user who may correct it) each value and the line items can be
 * corrected in place; the server checks them again and the review shows the result.
 */
export function ExtractionReview({ extraction, correct }: { extraction: IdfExtraction; correct?: Correct }) {
  const { t } = useTranslation();
  const f = useFormat();
  const [editingItems, setEditingItems] = useState(false);
  const items = extraction.fields.lineItems;
  const currency = extraction.fields.currency.value;
  return (
    <section className="card" aria-labelledby="extraction-title">
      <h2 id="extraction-title">{t('cargo.extracted')}</h2>
      <p className="small muted">{t('cargo.readFrom', { format: extraction.format.toUpperCase() })}</p>
      {extraction.valid ? (
        <p className="form-ok">{t('cargo.allChecksPassed')}</p>
      ) : (
        <p className="form-error">{t('cargo.someChecksFailed')}</p>
      )}
      <div className="table-wrap">
        <table className="data">
          <caption className="sr-only">{t('cargo.extracted')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('cargo.field')}</th>
              <th scope="col">{t('cargo.value')}</th>
              <th scope="col">{t('cargo.checks')}</th>
              <th scope="col">{t('cargo.issues')}</th>
            </tr>
          </thead>
          <tbody>
            {FIELDS.map((k) => {
              const fl = extraction.fields[k];
              return (
                <tr key={k} className={fl.valid === false ? 'issue' : undefined} data-testid={`field-${k}`}>
                  <th scope="row">{t(`cargo.fields.${k}`)}</th>
                  <td>
                    <CorrectableValue
                      field={k}
                      label={t(`cargo.fields.${k}`)}
                      value={fl.value}
                      correct={correct}
                      shown={
                        fl.value === null ? (
                          <span className="muted">{t('cargo.notFound')}</span>
                        ) : k === 'invoiceValue' && currency ? (
                          f.money(Number(fl.value), currency)
                        ) : (
                          String(fl.value)
                        )
                      }
                    />
                  </td>
                  <td>
                    <Check field={fl} />
                  </td>
                  <td>{fl.issues.join('; ') || '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <h3 className="mt">{t('cargo.lineItems')}</h3>
      <div className="row small" data-testid="field-lineItems">
        <Check field={items} />
        {items.issues.length > 0 && <span className="field-error">{items.issues.join('; ')}</span>}
        {correct && !editingItems && (
          <button type="button" className="btn btn-small" onClick={() => setEditingItems(true)}>
            {t('cargo.correctLineItems')}
          </button>
        )}
      </div>
      {correct && editingItems ? (
        <LineItemsEditor items={items.value ?? []} correct={correct} onDone={() => setEditingItems(false)} />
      ) : (
        <div className="table-wrap mt-s">
          <table className="data">
            <caption className="sr-only">{t('cargo.lineItems')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('cargo.hsCode')}</th>
                <th scope="col">{t('cargo.description')}</th>
                <th scope="col" className="num">
                  {t('cargo.quantity')}
                </th>
                <th scope="col">{t('cargo.unit')}</th>
                <th scope="col" className="num">
                  {t('cargo.value')}
                </th>
              </tr>
            </thead>
            <tbody>
              {(items.value ?? []).map((li, i) => {
                const bad = items.issues.some((s) => s.includes(li.hsCode));
                return (
                  <tr key={i} className={bad ? 'issue' : undefined}>
                    <td className="mono">{li.hsCode}</td>
                    <td>{li.description}</td>
                    <td className="num">{f.number(li.quantity)}</td>
                    <td>{li.unit}</td>
                    <td className="num">{currency ? f.money(li.value, currency) : f.number(li.value, 2)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {extraction.warnings.length > 0 && (
        <ul className="small mt-s">
          {extraction.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
