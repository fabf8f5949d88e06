import type { z } from 'zod';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CountryCode } from '@corridor/contracts/companies';
import { Corridor } from '@corridor/contracts/shipments';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { Field, FormError, useFieldErrors, fromLocalInput } from '../ui/forms';
import { cargoEndpoints } from './cargo';
import { shipmentEndpoints } from './shipments';

const list = (s: string) =>
  s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);

/** A new shipment (a draft) for the user's company: route, truck, driver, containers, cargo and plan. */
export default function CreateShipmentScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useApiMutation(shipmentEndpoints.create, { invalidates: ['shipments.'] });
  const cargo = useApiQuery(cargoEndpoints.listCompany, { query: { limit: 100, status: ['validated', 'released'] } });
  const [v, setV] = useState({
    reference: '', originPlace: 'Mombasa', originCountry: 'KE' as CountryCode, destinationPlace: '', destinationCountry: 'UG' as CountryCode,
    corridor: 'northern' as z.infer<typeof Corridor>, borders: '', truckPlate: '', trailerPlate: '', driverName: '', driverPhone: '', containers: '', cargoIds: [] as number[],
    plannedDeparture: '', plannedArrival: '', notes: '',
  });
  const set = <K extends keyof typeof v>(k: K) => (e: { target: { value: string } }) => setV((s) => ({ ...s, [k]: e.target.value }));
  const errors = useFieldErrors(create.error);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const s = await create
      .mutateAsync({
        body: {
          reference: v.reference.trim(),
          origin: { place: v.originPlace.trim(), country: v.originCountry },
          destination: { place: v.destinationPlace.trim(), country: v.destinationCountry },
          corridor: v.corridor,
          borderCrossings: list(v.borders),
          truckPlate: v.truckPlate.trim() || null,
          trailerPlate: v.trailerPlate.trim() || null,
          driver: v.driverName.trim() ? { name: v.driverName.trim(), phone: v.driverPhone.trim() || null, licenceNumber: null } : null,
          containerNumbers: list(v.containers),
          cargoIds: v.cargoIds,
          plannedDeparture: fromLocalInput(v.plannedDeparture),
          plannedArrival: fromLocalInput(v.plannedArrival),
          notes: v.notes.trim() || null,
        },
      })
      .catch(() => null);
    if (s) void navigate(`/shipments/${s.id}`);
  }

  const country = (k: 'originCountry' | 'destinationCountry') => (
    <select value={v[k]} onChange={set(k)}>
      {CountryCode.options.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  );
  return (
    <div className="screen">
      <p className="small">
        <Link to="/shipments">← {t('shipments.title')}</Link>
      </p>
      <h1>{t('shipments.create')}</h1>
      <form className="card" onSubmit={submit} aria-label={t('shipments.create')}>
        <fieldset>
          <legend>{t('shipments.route')}</legend>
          <div className="form-grid">
            <Field label={t('shipments.reference')} name="reference" error={errors.reference} hint={t('shipments.referenceHint')}>
              <input required value={v.reference} onChange={set('reference')} maxLength={64} />
            </Field>
            <Field label={t('shipments.origin')} name="origin" error={errors['origin.place']}>
              <input required value={v.originPlace} onChange={set('originPlace')} />
            </Field>
            <Field label={t('shipments.originCountry')} name="originCountry">
              {country('originCountry')}
            </Field>
            <Field label={t('shipments.destination')} name="destination" error={errors['destination.place']}>
              <input required value={v.destinationPlace} onChange={set('destinationPlace')} />
            </Field>
            <Field label={t('shipments.destinationCountry')} name="destinationCountry">
              {country('destinationCountry')}
            </Field>
            <Field label={t('shipments.corridorLabel')} name="corridor">
              <select value={v.corridor} onChange={set('corridor')}>
                {Corridor.options.map((c) => (
                  <option key={c} value={c}>
                    {t(`corridor.${c}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('shipments.borders')} name="borders" error={errors.borderCrossings} hint={t('shipments.listHint')}>
              <input value={v.borders} onChange={set('borders')} placeholder="Malaba" />
            </Field>
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('shipments.truckAndDriver')}</legend>
          <div className="form-grid">
            <Field label={t('shipments.truck')} name="truckPlate" error={errors.truckPlate}>
              <input value={v.truckPlate} onChange={set('truckPlate')} placeholder="KDA 123A" />
            </Field>
            <Field label={t('shipments.trailer')} name="trailerPlate" error={errors.trailerPlate}>
              <input value={v.trailerPlate} onChange={set('trailerPlate')} />
            </Field>
            <Field label={t('shipments.driver')} name="driverName" error={errors['driver.name']}>
              <input value={v.driverName} onChange={set('driverName')} />
            </Field>
            <Field label={t('shipments.driverPhone')} name="driverPhone" error={errors['driver.phone']}>
              <input value={v.driverPhone} onChange={set('driverPhone')} placeholder="+254712345678" />
            </Field>
            <Field label={t('shipments.containers')} name="containers" error={errors.containerNumbers} hint={t('shipments.listHint')}>
              <input value={v.containers} onChange={set('containers')} placeholder="MSKU1234565" />
            </Field>
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('shipments.cargoAndPlan')}</legend>
          <div className="form-grid">
            <Field label={t('shipments.cargo')} name="cargoIds" error={errors.cargoIds} hint={t('shipments.cargoHint')}>
              <select multiple value={v.cargoIds.map(String)} onChange={(e) => setV((s) => ({ ...s, cargoIds: [...e.target.selectedOptions].map((o) => Number(o.value)) }))}>
                {(cargo.data?.items ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.idfNumber}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('journey.plannedDeparture')} name="plannedDeparture" error={errors.plannedDeparture}>
              <input type="datetime-local" value={v.plannedDeparture} onChange={set('plannedDeparture')} />
            </Field>
            <Field label={t('journey.plannedArrival')} name="plannedArrival" error={errors.plannedArrival}>
              <input type="datetime-local" value={v.plannedArrival} onChange={set('plannedArrival')} />
            </Field>
            <Field label={t('shipments.note')} name="notes" error={errors.notes}>
              <textarea value={v.notes} onChange={set('notes')} maxLength={2000} />
            </Field>
          </div>
        </fieldset>
        <FormError error={create.error} />
        <div className="form-actions">
          <Link className="btn" to="/shipments">
            {t('common.cancel')}
          </Link>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {t('shipments.createSubmit')}
          </button>
        </div>
      </form>
    </div>
  );
}
