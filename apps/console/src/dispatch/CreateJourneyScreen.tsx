import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../api/hooks';
import { useFleetDevices } from '../live/queries';
import { useUser } from '../session/useUser';
import { Field, FormError, useFieldErrors, fromLocalInput } from '../ui/forms';
import { useCompanies, useRoutes } from '../ui/lookups';
import { journeyEndpoints } from './journeys';

/** Declare a journey: a truck's tracker on a corridor route, with its company, references and planned times. */
export default function CreateJourneyScreen() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const devices = useFleetDevices();
  const routes = useRoutes();
  const companies = useCompanies();
  const create = useApiMutation(journeyEndpoints.create, { invalidates: ['journeys.'] });
  const [form, setForm] = useState({ deviceId: '', routeId: '', companyId: user.companyId ? String(user.companyId) : '', truckPlate: '', shipmentRef: '', cargoRef: '', plannedDeparture: '', plannedArrival: '' });
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const errors = useFieldErrors(create.error);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const journey = await create
      .mutateAsync({
        body: {
          deviceId: Number(form.deviceId),
          routeId: Number(form.routeId),
          companyId: form.companyId ? Number(form.companyId) : null,
          truckPlate: form.truckPlate.trim() || null,
          shipmentRef: form.shipmentRef.trim() || null,
          cargoRef: form.cargoRef.trim() || null,
          plannedDeparture: fromLocalInput(form.plannedDeparture),
          plannedArrival: fromLocalInput(form.plannedArrival),
        },
      })
      .catch(() => null);
    if (journey) void navigate(`/journeys/${journey.id}`);
  }

  return (
    <div className="screen">
      <p className="small">
        <Link to="/journeys">← {t('journeys.title')}</Link>
      </p>
      <h1>{t('journeys.create')}</h1>
      <form className="card" onSubmit={submit} aria-label={t('journeys.create')}>
        <div className="form-grid">
          <Field label={t('journeys.truck')} name="deviceId" error={errors.deviceId}>
            <select required value={form.deviceId} onChange={set('deviceId')}>
              <option value="">{t('common.choose')}</option>
              {(devices.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.uniqueId})
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('journeys.route')} name="routeId" error={errors.routeId}>
            <select required value={form.routeId} onChange={set('routeId')}>
              <option value="">{t('common.choose')}</option>
              {(routes.data ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </Field>
          {user.companyId === null && (
            <Field label={t('journeys.company')} name="companyId" error={errors.companyId}>
              <select value={form.companyId} onChange={set('companyId')}>
                <option value="">{t('common.none')}</option>
                {(companies.data?.items ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
          <Field label={t('journey.plate')} name="truckPlate" error={errors.truckPlate}>
            <input value={form.truckPlate} onChange={set('truckPlate')} maxLength={32} placeholder="KCB 123A" />
          </Field>
          <Field label={t('journey.shipment')} name="shipmentRef" error={errors.shipmentRef}>
            <input value={form.shipmentRef} onChange={set('shipmentRef')} maxLength={128} />
          </Field>
          <Field label={t('journey.cargo')} name="cargoRef" error={errors.cargoRef}>
            <input value={form.cargoRef} onChange={set('cargoRef')} maxLength={128} />
          </Field>
          <Field label={t('journey.plannedDeparture')} name="plannedDeparture" error={errors.plannedDeparture}>
            <input type="datetime-local" value={form.plannedDeparture} onChange={set('plannedDeparture')} />
          </Field>
          <Field label={t('journey.plannedArrival')} name="plannedArrival" error={errors.plannedArrival}>
            <input type="datetime-local" value={form.plannedArrival} onChange={set('plannedArrival')} />
          </Field>
        </div>
        <FormError error={create.error} />
        <div className="form-actions">
          <Link className="btn" to="/journeys">
            {t('common.cancel')}
          </Link>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {t('journeys.createSubmit')}
          </button>
        </div>
      </form>
    </div>
  );
}
