import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DisciplinaryInput, DisciplinarySubjectType, SanctionType, type DisciplinaryRecord } from '@corridor/contracts/disciplinary';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import type { Column } from '../ui/DataTable';
import { CompanyFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { chosenId, usePagedFilters } from '../ui/list/usePagedFilters';
import { DateTimeField, SelectField, TextAreaField, TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { CompanyField } from '../ui/form/pickers';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { useCompanies } from '../ui/lookups';
import { disciplinaryCreate, disciplinaryList } from './association';
import { subjectNamed, SubjectText } from './subject';
import { useNoticeWord } from '../i18n/notice-words';

/** Sanctions against companies, drivers and trucks: who, what, how long, in force or not; officers record new ones. */
export default function DisciplinaryScreen() {
  const { t } = useTranslation();
  const word = useNoticeWord();
  const f = useFormat();
  const user = useUser();
  const companies = useCompanies();
  const list = usePagedFilters({ companyId: '' });
  const q = useApiQuery(disciplinaryList, {
    query: { limit: list.limit, offset: list.offset, companyId: chosenId(list.filters.companyId) },
  });
  const columns: Column<DisciplinaryRecord>[] = [
    {
      key: 'subject',
      header: t('disciplinary.subject'),
      cell: (r) =>
        `${companies.name(r.companyId)}${r.subjectType === 'company' ? '' : ` · ${t(`complaints.subject.${r.subjectType}`)} ${r.subjectRef}`}`,
    },
    {
      key: 'sanction',
      header: t('disciplinary.sanction'),
      cell: (r) =>
        `${word('sanctions', r.sanctionType)}${r.fineAmount && r.fineCurrency ? ` · ${f.money(r.fineAmount, r.fineCurrency)}` : ''}`,
    },
    { key: 'reason', header: t('disciplinary.reason'), cell: (r) => r.reason },
    {
      key: 'period',
      header: t('disciplinary.period'),
      cell: (r) => `${f.date(r.startsAt)} → ${r.endsAt ? f.date(r.endsAt) : t('disciplinary.openEnded')}`,
    },
    {
      key: 'active',
      header: t('disciplinary.inForce'),
      cell: (r) => (r.active ? <span className="pill pill-bad">{t('common.yes')}</span> : <span className="pill">{t('common.no')}</span>),
    },
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
      <PagedTable
        caption={t('disciplinary.title')}
        columns={columns}
        query={q}
        list={list}
        rowKey={(r) => r.id}
        empty={{ title: t('disciplinary.empty'), hint: t('disciplinary.emptyHint') }}
      />
    </div>
  );
}

/** The form's values: the contract's DisciplinaryInput, the subject named only when it is not the company, a fine's amount asked for with a fine. */
const SanctionForm = DisciplinaryInput.extend({ subjectRef: SubjectText })
  .superRefine(subjectNamed)
  .superRefine((v, ctx) => {
    if (v.sanctionType === 'fine' && !v.fineAmount) ctx.addIssue({ code: 'custom', path: ['fineAmount'], message: 'required' });
  });
const CURRENCIES = ['KES', 'TZS', 'UGX', 'RWF', 'USD'] as const;

/** An officer records a sanction: checked by the contract before it is sent, a refusal said under its field. */
function RecordSanction() {
  const { t } = useTranslation();
  const word = useNoticeWord();
  const create = useApiMutation(disciplinaryCreate, { invalidates: ['disciplinary.', 'ratings.'] });
  const [error, setError] = useState<unknown>(null);
  const blank = () => ({
    subjectType: 'company' as const,
    subjectRef: '',
    sanctionType: 'warning' as const,
    reason: '',
    startsAt: new Date().toISOString(),
    endsAt: null,
    fineCurrency: 'KES',
  });
  const form = useZodForm(SanctionForm, {
    defaultValues: blank(),
    refinements: { subjectRef: t('form.required'), fineAmount: t('form.required') },
  });
  const [subjectType, sanctionType] = form.watch(['subjectType', 'sanctionType']);
  const labels = {
    companyId: t('journeys.company'),
    subjectType: t('complaints.about'),
    subjectRef: t(`complaints.subjectRef.${subjectType}`),
    sanctionType: t('disciplinary.sanction'),
    fineAmount: t('disciplinary.fine'),
    fineCurrency: t('disciplinary.currency'),
    startsAt: t('disciplinary.starts'),
    endsAt: t('disciplinary.ends'),
    complaintId: t('disciplinary.complaint'),
    reason: t('disciplinary.reason'),
  };
  const problem = useServerProblems(form, error, labels);
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    const fine = v.sanctionType === 'fine';
    try {
      await create.mutateAsync({
        body: {
          ...v,
          subjectRef: v.subjectType === 'company' ? String(v.companyId) : v.subjectRef,
          fineAmount: fine ? v.fineAmount : null,
          fineCurrency: fine ? v.fineCurrency : null,
        },
      });
      form.reset(blank());
    } catch (e) {
      setError(e);
    }
  });
  return (
    <details className="card">
      <summary>
        <strong>{t('disciplinary.record')}</strong>
      </summary>
      <FormProvider {...form}>
        <form onSubmit={(e) => void onSubmit(e)} aria-label={t('disciplinary.record')} className="mt-s" noValidate>
          <div className="form-grid">
            <CompanyField name="companyId" label={labels.companyId} required />
            <SelectField
              name="subjectType"
              label={labels.subjectType}
              options={DisciplinarySubjectType.options.map((s) => ({ value: s, label: t(`complaints.subject.${s}`) }))}
            />
            {subjectType !== 'company' && <TextField name="subjectRef" label={labels.subjectRef} required maxLength={64} />}
            <SelectField
              name="sanctionType"
              label={labels.sanctionType}
              options={SanctionType.options.map((s) => ({ value: s, label: word('sanctions', s) }))}
            />
            {sanctionType === 'fine' && (
              <>
                <TextField
                  name="fineAmount"
                  label={labels.fineAmount}
                  type="number"
                  min={1}
                  step="any"
                  inputMode="decimal"
                  required
                  valueAsNumber
                />
                <SelectField name="fineCurrency" label={labels.fineCurrency} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
              </>
            )}
            <DateTimeField name="startsAt" label={labels.startsAt} required />
            <DateTimeField name="endsAt" label={labels.endsAt} hint={t('disciplinary.endsHint')} emptyIsNull />
            <TextField name="complaintId" label={labels.complaintId} type="number" min={1} step={1} inputMode="numeric" valueAsNumber />
          </div>
          <TextAreaField name="reason" label={labels.reason} required maxLength={2000} />
          <FormFooter problem={problem} submitLabel={t('disciplinary.recordSubmit')} />
        </form>
      </FormProvider>
    </details>
  );
}
