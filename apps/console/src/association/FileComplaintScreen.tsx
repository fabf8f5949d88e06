import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ComplaintCategory, ComplaintInput, ComplaintSubjectType } from '@corridor/contracts/complaints';
import { useApiMutation } from '../api/hooks';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { DateTimeField, SelectField, TextAreaField, TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { AnyCompanyField } from '../ui/form/pickers';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { subjectNamed, SubjectText } from './subject';
import { complaintEndpoints } from './association';
import { useNoticeWord } from '../i18n/notice-words';

/** The form's values: the contract's ComplaintInput, the subject named only when it is not the company itself. */
const Form = ComplaintInput.extend({ subjectRef: SubjectText, journeyId: z.string().trim().max(64) }).superRefine(subjectNamed);

/** File a complaint against a company, one of its drivers or trucks, or a journey flag (any signed-in user). */
export default function FileComplaintScreen() {
  const { t } = useTranslation();
  const word = useNoticeWord();
  const user = useUser();
  const navigate = useNavigate();
  const create = useApiMutation(complaintEndpoints.create, { invalidates: ['complaints.'] });
  const [error, setError] = useState<unknown>(null);
  const [filed, setFiled] = useState(false);
  const form = useZodForm(Form, {
    defaultValues: {
      subjectType: 'company',
      subjectRef: '',
      category: 'delay',
      title: '',
      description: '',
      journeyId: '',
      occurredAt: null,
    },
    refinements: { subjectRef: t('form.required') },
  });
  const subjectType = form.watch('subjectType');
  const labels = {
    companyId: t('complaints.company'),
    subjectType: t('complaints.about'),
    subjectRef: t(`complaints.subjectRef.${subjectType}`),
    category: t('complaints.category'),
    occurredAt: t('complaints.occurred'),
    journeyId: t('journeys.journey'),
    title: t('complaints.titleLabel'),
    description: t('complaints.description'),
  };
  const problem = useServerProblems(form, error, labels);
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      const c = await create.mutateAsync({
        body: { ...v, subjectRef: v.subjectType === 'company' ? String(v.companyId) : v.subjectRef, journeyId: v.journeyId || null },
      });
      if (may(user, complaintEndpoints.get)) void navigate(`/complaints/${c.id}`);
      else setFiled(true);
    } catch (e) {
      setError(e);
    }
  });
  if (filed) return <p className="form-ok">{t('complaints.filedOk')}</p>;
  return (
    <div className="screen">
      {may(user, complaintEndpoints.list) && (
        <p className="small">
          <Link to="/complaints">← {t('complaints.title')}</Link>
        </p>
      )}
      <h1>{t('complaints.file')}</h1>
      <FormProvider {...form}>
        <form className="card" onSubmit={(e) => void onSubmit(e)} aria-label={t('complaints.file')} noValidate>
          <div className="form-grid">
            <AnyCompanyField name="companyId" label={labels.companyId} required excludeOwn={user.companyId} />
            <SelectField
              name="subjectType"
              label={labels.subjectType}
              options={ComplaintSubjectType.options.map((s) => ({ value: s, label: t(`complaints.subject.${s}`) }))}
            />
            {subjectType !== 'company' && <TextField name="subjectRef" label={labels.subjectRef} required maxLength={64} />}
            <SelectField
              name="category"
              label={labels.category}
              options={ComplaintCategory.options.map((c) => ({ value: c, label: word('categories', c) }))}
            />
            <DateTimeField name="occurredAt" label={labels.occurredAt} emptyIsNull />
            <TextField name="journeyId" label={labels.journeyId} maxLength={64} />
          </div>
          <TextField name="title" label={labels.title} required maxLength={200} />
          <TextAreaField name="description" label={labels.description} required maxLength={5000} />
          <FormFooter problem={problem} submitLabel={t('complaints.fileSubmit')} />
        </form>
      </FormProvider>
    </div>
  );
}
