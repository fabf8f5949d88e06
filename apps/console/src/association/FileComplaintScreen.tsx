import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ComplaintCategory, ComplaintSubjectType } from '@corridor/contracts/complaints';
import { useApiMutation } from '../api/hooks';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { Field, FormError, useFieldErrors, fromLocalInput } from '../ui/forms';
import { useCompanies } from '../ui/lookups';
import { complaintEndpoints } from './association';

/** File a complaint against a company, one of its drivers or trucks, or a journey flag (any signed-in user). */
export default function FileComplaintScreen() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const companies = useCompanies();
  const create = useApiMutation(complaintEndpoints.create, { invalidates: ['complaints.'] });
  const [v, setV] = useState({ subjectType: 'company' as ComplaintSubjectType, subjectRef: '', companyId: '', category: 'delay' as ComplaintCategory, title: '', description: '', journeyId: '', occurredAt: '' });
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV((s) => ({ ...s, [k]: e.target.value }));
  const errors = useFieldErrors(create.error);
  const [filed, setFiled] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const c = await create
      .mutateAsync({
        body: {
          subjectType: v.subjectType, subjectRef: v.subjectType === 'company' ? v.companyId : v.subjectRef.trim(), companyId: Number(v.companyId), category: v.category,
          title: v.title.trim(), description: v.description.trim(), journeyId: v.journeyId.trim() || null, occurredAt: fromLocalInput(v.occurredAt),
        },
      })
      .catch(() => null);
    if (!c) return;
    if (may(user, complaintEndpoints.get)) void navigate(`/complaints/${c.id}`);
    else setFiled(true);
  }
  if (filed) return <p className="form-ok">{t('complaints.filedOk')}</p>;
  return (
    <div className="screen">
      {may(user, complaintEndpoints.list) && (
        <p className="small">
          <Link to="/complaints">← {t('complaints.title')}</Link>
        </p>
      )}
      <h1>{t('complaints.file')}</h1>
      <form className="card" onSubmit={submit} aria-label={t('complaints.file')}>
        <div className="form-grid">
          <Field label={t('complaints.company')} name="companyId" error={errors.companyId}>
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
              {ComplaintSubjectType.options.map((s) => (
                <option key={s} value={s}>
                  {t(`complaints.subject.${s}`)}
                </option>
              ))}
            </select>
          </Field>
          {v.subjectType !== 'company' && (
            <Field label={t(`complaints.subjectRef.${v.subjectType}`)} name="subjectRef" error={errors.subjectRef}>
              <input required value={v.subjectRef} onChange={set('subjectRef')} maxLength={64} />
            </Field>
          )}
          <Field label={t('complaints.category')} name="category">
            <select value={v.category} onChange={set('category')}>
              {ComplaintCategory.options.map((c) => (
                <option key={c} value={c}>
                  {t(`complaints.categories.${c}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('complaints.occurred')} name="occurredAt" error={errors.occurredAt}>
            <input type="datetime-local" value={v.occurredAt} onChange={set('occurredAt')} />
          </Field>
          <Field label={t('journeys.journey')} name="journeyId" error={errors.journeyId}>
            <input value={v.journeyId} onChange={set('journeyId')} maxLength={64} />
          </Field>
        </div>
        <Field label={t('complaints.titleLabel')} name="title" error={errors.title}>
          <input required minLength={3} maxLength={200} value={v.title} onChange={set('title')} />
        </Field>
        <Field label={t('complaints.description')} name="description" error={errors.description}>
          <textarea required minLength={10} maxLength={5000} value={v.description} onChange={set('description')} />
        </Field>
        <FormError error={create.error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {t('complaints.fileSubmit')}
          </button>
        </div>
      </form>
    </div>
  );
}
