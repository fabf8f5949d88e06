import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ProgressKind, ProgressUpdateInput, type ProgressUpdate } from '@corridor/contracts/shipments';
import { useApiMutation } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { DateTimeField, SelectField, TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { shipmentEndpoints } from './shipments';

/** The form's values: the contract's ProgressUpdateInput, its place named (the form has no coordinates), the note optional. */
const Form = ProgressUpdateInput.extend({
  location: z.object({ name: ProgressUpdateInput.shape.location.shape.name.unwrap().unwrap() }),
  note: z.string().trim().max(1000),
});

/** The shipment's track details, oldest first, and a form to record the next one. */
export function ProgressPanel({ shipmentId, progress, canAdd }: { shipmentId: number; progress: ProgressUpdate[]; canAdd: boolean }) {
  const { t } = useTranslation();
  const f = useFormat();
  const add = useApiMutation(shipmentEndpoints.addProgress, { invalidates: ['shipments.get'] });
  const [error, setError] = useState<unknown>(null);
  const form = useZodForm(Form, {
    defaultValues: { at: new Date().toISOString(), kind: 'checkpoint', location: { name: '' }, note: '' },
  });
  const labels = {
    at: t('shipments.when'),
    kind: t('shipments.kind'),
    'location.name': t('shipments.place'),
    note: t('shipments.note'),
  };
  const problem = useServerProblems(form, error, labels);
  const submit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      await add.mutateAsync({
        params: { shipmentId },
        body: { at: v.at, kind: v.kind, location: { name: v.location.name }, note: v.note || null },
      });
      form.reset({ ...v, location: { name: '' }, note: '' });
    } catch (e) {
      setError(e);
    }
  });

  return (
    <section className="card" aria-labelledby="progress-title">
      <h2 id="progress-title">{t('shipments.progress')}</h2>
      {progress.length === 0 ? (
        <p className="muted">{t('shipments.noProgress')}</p>
      ) : (
        <ol className="timeline">
          {progress.map((p) => (
            <li key={p.id}>
              <strong>{t(`progressKind.${p.kind}`)}</strong> · {p.location.name ?? f.coordinates(p.location.latitude, p.location.longitude)}
              <div className="small muted">
                {f.dateTime(p.at)} · {p.recordedBy.email}
              </div>
              {p.note && <div className="small">{p.note}</div>}
            </li>
          ))}
        </ol>
      )}
      {canAdd && (
        <FormProvider {...form}>
          <form onSubmit={(e) => void submit(e)} aria-label={t('shipments.addProgress')} noValidate>
            <div className="form-grid">
              <DateTimeField name="at" label={labels.at} required />
              <SelectField
                name="kind"
                label={labels.kind}
                options={ProgressKind.options.map((k) => ({ value: k, label: t(`progressKind.${k}`) }))}
              />
              <TextField name="location.name" label={labels['location.name']} required maxLength={120} placeholder="Malaba OSBP" />
              <TextField name="note" label={labels.note} maxLength={1000} />
            </div>
            <FormFooter problem={problem} submitLabel={t('shipments.addProgress')} tone="plain" />
          </form>
        </FormProvider>
      )}
    </section>
  );
}
