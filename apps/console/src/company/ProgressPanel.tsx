import type { z } from 'zod';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ProgressKind, type ProgressUpdate } from '@corridor/contracts/shipments';
import { useApiMutation } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { Field, FormError, useFieldErrors, fromLocalInput, localInput } from '../ui/forms';
import { shipmentEndpoints } from './shipments';

/** The shipment's track details, oldest first, and a form to record the next one. */
export function ProgressPanel({ shipmentId, progress, canAdd }: { shipmentId: number; progress: ProgressUpdate[]; canAdd: boolean }) {
  const { t } = useTranslation();
  const f = useFormat();
  const add = useApiMutation(shipmentEndpoints.addProgress, { invalidates: ['shipments.get'] });
  const [form, setForm] = useState({
    at: localInput(new Date().toISOString()),
    kind: 'checkpoint' as z.infer<typeof ProgressKind>,
    place: '',
    note: '',
  });
  const errors = useFieldErrors(add.error);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await add
      .mutateAsync({
        params: { shipmentId },
        body: {
          at: fromLocalInput(form.at) ?? new Date().toISOString(),
          kind: form.kind,
          location: { name: form.place.trim() || null },
          note: form.note.trim() || null,
        },
      })
      .then(
        () => true,
        () => false,
      );
    if (ok) setForm((s) => ({ ...s, place: '', note: '' }));
  }

  return (
    <section className="card" aria-labelledby="progress-title">
      <h2 id="progress-title">{t('shipments.progress')}</h2>
      {progress.length === 0 ? (
        <p className="muted">{t('shipments.noProgress')}</p>
      ) : (
        <ol className="timeline">
          {progress.map((p) => (
            <li key={p.id}>
              <strong>{t(`progressKind.${p.kind}`)}</strong> ·{' '}
              {p.location.name ?? `${p.location.latitude?.toFixed(4)}, ${p.location.longitude?.toFixed(4)}`}
              <div className="small muted">
                {f.dateTime(p.at)} · {p.recordedBy.email}
              </div>
              {p.note && <div className="small">{p.note}</div>}
            </li>
          ))}
        </ol>
      )}
      {canAdd && (
        <form onSubmit={submit} aria-label={t('shipments.addProgress')}>
          <div className="form-grid">
            <Field label={t('shipments.when')} name="at" error={errors.at}>
              <input type="datetime-local" required value={form.at} onChange={(e) => setForm({ ...form, at: e.target.value })} />
            </Field>
            <Field label={t('shipments.kind')} name="kind" error={errors.kind}>
              <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as z.infer<typeof ProgressKind> })}>
                {ProgressKind.options.map((k) => (
                  <option key={k} value={k}>
                    {t(`progressKind.${k}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('shipments.place')} name="place" error={errors['location.name']}>
              <input
                required
                value={form.place}
                maxLength={120}
                onChange={(e) => setForm({ ...form, place: e.target.value })}
                placeholder="Malaba OSBP"
              />
            </Field>
            <Field label={t('shipments.note')} name="note" error={errors.note}>
              <input value={form.note} maxLength={1000} onChange={(e) => setForm({ ...form, note: e.target.value })} />
            </Field>
          </div>
          <FormError error={add.error} />
          <div className="form-actions">
            <button type="submit" className="btn" disabled={add.isPending}>
              {t('shipments.addProgress')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
