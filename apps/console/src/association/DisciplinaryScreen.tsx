import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DisciplinarySubjectType, SanctionType, type DisciplinaryRecord } from '@corridor/contracts/disciplinary';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import type { Column } from '../ui/DataTable';
import { CompanyFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { chosenId, usePagedFilters } from '../ui/list/usePagedFilters';
import { Field, FormError, useFieldErrors, fromLocalInput, localInput } from '../ui/forms';
import { useCompanies } from '../ui/lookups';
import { disciplinaryCreate, disciplinaryList } from './association';

/** Sanctions against companies, drivers and trucks: who, what, how long, in force or not; officers record new ones. */
export default function DisciplinaryScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const companies = useCompanies();
  const list = usePagedFilters({ companyId: '' });
  const q = useApiQuery(disciplinaryList, { query: { limit: list.limit, offset: list.offset, companyId: chosenId(list.filters.companyId) } });
  const columns: Column<DisciplinaryRecord>[] = [
    { key: 'subject', header: t('disciplinary.subject'), cell: (r) => `${companies.name(r.companyId)}${r.subjectType === 'company' ? '' : ` · ${t(`complaints.subject.${r.subjectType}`)} ${r.subjectRef}`}` },
    { key: 'sanction', header: t('disciplinary.sanction'), cell: (r) => `${t(`disciplinary.sanctions.${r.sanctionType}`)}${r.fineAmount && r.fineCurrency ? ` · ${f.money(r.fineAmount, r.fineCurrency)}` : ''}` },
    { key: 'reason', header: t('disciplinary.reason'), cell: (r) => r.reason },
    { key: 'period', header: t('disciplinary.period'), cell: (r) => `${f.date(r.startsAt)} → ${r.endsAt ? f.date(r.endsAt) : t('disciplinary.openEnded')}` },
    { key: 'active', header: t('disciplinary.inForce'), cell: (r) => (r.active ? <span className="pill pill-bad">{t('common.yes')}</span> : <span className="pill">{t('common.no')}</span>) },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('disciplinary.title')}</h1>
      </div>
      {may(user, disciplinaryCreate) && <RecordSanction />}
      <div className="filters mt">
        <CompanyFilter value={list.filters.companyId} onChange={(v) => list.set('companyId', v)} />
      </div>
      <PagedTable caption={t('disciplinary.title')} columns={columns} query={q} list={list} rowKey={(r) => r.id} empty={{ title: t('disciplinary.empty'), hint: t('disciplinary.emptyHint') }} />
    </div>
  );
}

function RecordSanction() {
  const { t } = useTranslation();
  const companies = useCompanies();
  const create = useApiMutation(disciplinaryCreate, { invalidates: ['disciplinary.', 'ratings.'] });
  const blank = { companyId: '', subjectType: 'company' as DisciplinarySubjectType, subjectRef: '', sanctionType: 'warning' as SanctionType, reason: '', startsAt: localInput(new Date().toISOString()), endsAt: '', fineAmount: '', fineCurrency: 'KES', complaintId: '' };
  const [v, setV] = useState(blank);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV((s) => ({ ...s, [k]: e.target.value }));
  const errors = useFieldErrors(create.error);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const fine = v.sanctionType === 'fine';
    const ok = await create
      .mutateAsync({
        body: {
          companyId: Number(v.companyId), subjectType: v.subjectType, subjectRef: v.subjectType === 'company' ? v.companyId : v.subjectRef.trim(), sanctionType: v.sanctionType,
          reason: v.reason.trim(), startsAt: fromLocalInput(v.startsAt) ?? new Date().toISOString(), endsAt: fromLocalInput(v.endsAt),
          fineAmount: fine ? Number(v.fineAmount) : null, fineCurrency: fine ? v.fineCurrency : null, complaintId: v.complaintId ? Number(v.complaintId) : null,
        },
      })
      .then(() => true, () => false);
    if (ok) setV(blank);
  }
  return (
    <details className="card">
      <summary>
        <strong>{t('disciplinary.record')}</strong>
      </summary>
      <form onSubmit={submit} aria-label={t('disciplinary.record')} className="mt-s">
        <div className="form-grid">
          <Field label={t('journeys.company')} name="companyId" error={errors.companyId}>
            <select required value={v.companyId} onChange={set('companyId')}>
              <option value="">{t('common.choose')}</option>
              {(companies.data?.items ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('complaints.about')} name="subjectType">
            <select value={v.subjectType} onChange={set('subjectType')}>
              {DisciplinarySubjectType.options.map((s) => (
                <option key={s} value={s}>
                  {t(`complaints.subject.${s}`)}
                </option>
              ))}
            </select>
          </Field>
          {v.subjectType !== 'company' && (
            <Field label={t(`complaints.subjectRef.${v.subjectType}`)} name="subjectRef" error={errors.subjectRef}>
              <input required value={v.subjectRef} onChange={set('subjectRef')} />
            </Field>
          )}
          <Field label={t('disciplinary.sanction')} name="sanctionType">
            <select value={v.sanctionType} onChange={set('sanctionType')}>
              {SanctionType.options.map((s) => (
                <option key={s} value={s}>
                  {t(`disciplinary.sanctions.${s}`)}
                </option>
              ))}
            </select>
          </Field>
          {v.sanctionType === 'fine' && (
            <>
              <Field label={t('disciplinary.fine')} name="fineAmount" error={errors.fineAmount}>
                <input type="number" min="1" step="any" required value={v.fineAmount} onChange={set('fineAmount')} />
              </Field>
              <Field label={t('disciplinary.currency')} name="fineCurrency" error={errors.fineCurrency}>
                <select value={v.fineCurrency} onChange={set('fineCurrency')}>
                  {['KES', 'TZS', 'UGX', 'RWF', 'USD'].map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </select>
              </Field>
            </>
          )}
          <Field label={t('disciplinary.starts')} name="startsAt" error={errors.startsAt}>
            <input type="datetime-local" required value={v.startsAt} onChange={set('startsAt')} />
          </Field>
          <Field label={t('disciplinary.ends')} name="endsAt" error={errors.endsAt} hint={t('disciplinary.endsHint')}>
            <input type="datetime-local" value={v.endsAt} onChange={set('endsAt')} />
          </Field>
          <Field label={t('disciplinary.complaint')} name="complaintId" error={errors.complaintId}>
            <input inputMode="numeric" value={v.complaintId} onChange={set('complaintId')} />
          </Field>
        </div>
        <Field label={t('disciplinary.reason')} name="reason" error={errors.reason}>
          <textarea required minLength={5} value={v.reason} onChange={set('reason')} />
        </Field>
        <FormError error={create.error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {t('disciplinary.recordSubmit')}
          </button>
        </div>
      </form>
    </details>
  );
}
