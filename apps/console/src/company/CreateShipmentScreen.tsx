import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CountryCode } from '@corridor/contracts/companies';
import { Corridor, ShipmentInput } from '@corridor/contracts/shipments';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { DateTimeField, ListField, MultiSelectField, SelectField, TextAreaField, TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { cargoEndpoints } from './cargo';
import { shipmentEndpoints } from './shipments';

const blank = (v: unknown) => v === '' || v === undefined;
/**
 * The form's values are the contract's ShipmentInput as typed: empty texts are none (null), and a
 * driver without a name is no driver. The contract then checks them as the API will.
 */
const Form = z.preprocess((raw) => {
  const v = { ...(raw as Record<string, unknown>) };
  for (const k of ['truckPlate', 'trailerPlate', 'notes', 'plannedDeparture', 'plannedArrival']) if (blank(v[k])) v[k] = null;
  const driver = v.driver as { name?: string; phone?: string } | null | undefined;
  v.driver =
    driver && !blank(driver.name?.trim())
      ? { name: driver.name, phone: blank(driver.phone) ? null : driver.phone, licenceNumber: null }
      : null;
  return v;
}, ShipmentInput);

/** A new shipment (a draft) for the user's company: route, truck, driver, containers, cargo and plan, checked by the contract before it is sent. */
export default function CreateShipmentScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useApiMutation(shipmentEndpoints.create, { invalidates: ['shipments.'] });
  const cargo = useApiQuery(cargoEndpoints.listCompany, { query: { limit: 100, status: ['validated', 'released'] } });
  const [error, setError] = useState<unknown>(null);
  const form = useZodForm(Form as unknown as typeof ShipmentInput, {
    defaultValues: {
      reference: '',
      origin: { place: 'Mombasa', country: 'KE' },
      destination: { place: '', country: 'UG' },
      corridor: 'northern',
      borderCrossings: [],
      truckPlate: null,
      trailerPlate: null,
      driver: { name: '', phone: null, licenceNumber: null },
      containerNumbers: [],
      cargoIds: [],
      plannedDeparture: null,
      plannedArrival: null,
      notes: null,
    },
    refinements: {
      plannedArrival: t('shipments.arrivalBeforeDeparture'),
      containerNumbers: t('shipments.containerTwice'),
      'containerNumbers.*': t('shipments.containerCheck'),
      truckPlate: t('shipments.plateShape'),
      trailerPlate: t('shipments.plateShape'),
    },
  });
  const labels = {
    reference: t('shipments.reference'),
    'origin.place': t('shipments.origin'),
    'origin.country': t('shipments.originCountry'),
    'destination.place': t('shipments.destination'),
    'destination.country': t('shipments.destinationCountry'),
    corridor: t('shipments.corridorLabel'),
    borderCrossings: t('shipments.borders'),
    truckPlate: t('shipments.truck'),
    trailerPlate: t('shipments.trailer'),
    'driver.name': t('shipments.driver'),
    'driver.phone': t('shipments.driverPhone'),
    containerNumbers: t('shipments.containers'),
    cargoIds: t('shipments.cargo'),
    plannedDeparture: t('journey.plannedDeparture'),
    plannedArrival: t('journey.plannedArrival'),
    notes: t('shipments.note'),
  };
  const problem = useServerProblems(form, error, labels);
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    try {
      const s = await create.mutateAsync({ body });
      void navigate(`/shipments/${s.id}`);
    } catch (e) {
      setError(e);
    }
  });
  const countries = CountryCode.options.map((c) => ({ value: c, label: c }));
  return (
    <div className="screen">
      <p className="small">
        <Link to="/shipments">← {t('shipments.title')}</Link>
      </p>
      <h1>{t('shipments.create')}</h1>
      <FormProvider {...form}>
        <form className="card" onSubmit={(e) => void submit(e)} aria-label={t('shipments.create')} noValidate>
          <fieldset>
            <legend>{t('shipments.route')}</legend>
            <div className="form-grid">
              <TextField name="reference" label={labels.reference} hint={t('shipments.referenceHint')} required maxLength={64} />
              <TextField name="origin.place" label={labels['origin.place']} required maxLength={120} />
              <SelectField name="origin.country" label={labels['origin.country']} options={countries} />
              <TextField name="destination.place" label={labels['destination.place']} required maxLength={120} />
              <SelectField name="destination.country" label={labels['destination.country']} options={countries} />
              <SelectField
                name="corridor"
                label={labels.corridor}
                emptyIsNull
                empty={t('common.none')}
                options={Corridor.options.map((c) => ({ value: c, label: t(`corridor.${c}`) }))}
              />
              <ListField name="borderCrossings" label={labels.borderCrossings} hint={t('shipments.listHint')} placeholder="Malaba" />
            </div>
          </fieldset>
          <fieldset>
            <legend>{t('shipments.truckAndDriver')}</legend>
            <div className="form-grid">
              <TextField name="truckPlate" label={labels.truckPlate} placeholder="KDA 123A" maxLength={16} />
              <TextField name="trailerPlate" label={labels.trailerPlate} maxLength={16} />
              <TextField name="driver.name" label={labels['driver.name']} maxLength={120} />
              <TextField name="driver.phone" label={labels['driver.phone']} placeholder="+254712345678" type="tel" maxLength={16} />
              <ListField name="containerNumbers" label={labels.containerNumbers} hint={t('shipments.listHint')} placeholder="MSKU1234565" />
            </div>
          </fieldset>
          <fieldset>
            <legend>{t('shipments.cargoAndPlan')}</legend>
            <div className="form-grid">
              <MultiSelectField
                name="cargoIds"
                label={labels.cargoIds}
                hint={t('shipments.cargoHint')}
                options={(cargo.data?.items ?? []).map((c) => ({ value: c.id, label: c.idfNumber }))}
              />
              <DateTimeField name="plannedDeparture" label={labels.plannedDeparture} emptyIsNull />
              <DateTimeField name="plannedArrival" label={labels.plannedArrival} emptyIsNull />
              <TextAreaField name="notes" label={labels.notes} maxLength={2000} />
            </div>
          </fieldset>
          <FormFooter problem={problem} submitLabel={t('shipments.createSubmit')} cancelTo="/shipments" />
        </form>
      </FormProvider>
    </div>
  );
}
