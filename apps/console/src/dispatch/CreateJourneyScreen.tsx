import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { JourneyInput } from '@corridor/contracts/journeys';
import { useApiMutation } from '../api/hooks';
import { useFleetDevices } from '../live/queries';
import { useUser } from '../session/useUser';
import { DateTimeField, SelectField, TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { CompanyField } from '../ui/form/pickers';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { useRoutes } from '../ui/lookups';
import { journeyEndpoints } from './journeys';

/**
 * Declare a journey: a truck's tracker on a corridor route, with its company, references and planned
 * times, checked by the contract's JourneyInput before it is sent (a truck and a route chosen, the
 * arrival after the departure).
 */
export default function CreateJourneyScreen() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const devices = useFleetDevices();
  const routes = useRoutes();
  const create = useApiMutation(journeyEndpoints.create, { invalidates: ['journeys.'] });
  const [error, setError] = useState<unknown>(null);
  const form = useZodForm(JourneyInput, {
    defaultValues: {
      companyId: user.companyId ?? null,
      truckPlate: null,
      shipmentRef: null,
      cargoRef: null,
      plannedDeparture: null,
      plannedArrival: null,
    },
    refinements: { plannedArrival: t('journeys.arrivalAfterDeparture') },
  });
  const labels = {
    deviceId: t('journeys.truck'),
    routeId: t('journeys.route'),
    companyId: t('journeys.company'),
    truckPlate: t('journey.plate'),
    shipmentRef: t('journey.shipment'),
    cargoRef: t('journey.cargo'),
    plannedDeparture: t('journey.plannedDeparture'),
    plannedArrival: t('journey.plannedArrival'),
  };
  const problem = useServerProblems(form, error, labels);
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    try {
      const journey = await create.mutateAsync({ body });
      void navigate(`/journeys/${journey.id}`);
    } catch (e) {
      setError(e);
    }
  });
  return (
    <div className="screen">
      <p className="small">
        <Link to="/journeys">← {t('journeys.title')}</Link>
      </p>
      <h1>{t('journeys.create')}</h1>
      <FormProvider {...form}>
        <form className="card" onSubmit={(e) => void submit(e)} aria-label={t('journeys.create')} noValidate>
          <div className="form-grid">
            <SelectField
              name="deviceId"
              label={labels.deviceId}
              required
              numeric
              empty={t('common.choose')}
              options={(devices.data ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.uniqueId})` }))}
            />
            <SelectField
              name="routeId"
              label={labels.routeId}
              required
              numeric
              empty={t('common.choose')}
              options={(routes.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
            />
            {user.companyId === null && <CompanyField name="companyId" label={labels.companyId} />}
            <TextField name="truckPlate" label={labels.truckPlate} maxLength={32} placeholder="KCB 123A" emptyIsNull />
            <TextField name="shipmentRef" label={labels.shipmentRef} maxLength={128} emptyIsNull />
            <TextField name="cargoRef" label={labels.cargoRef} maxLength={128} emptyIsNull />
            <DateTimeField name="plannedDeparture" label={labels.plannedDeparture} emptyIsNull />
            <DateTimeField name="plannedArrival" label={labels.plannedArrival} emptyIsNull />
          </div>
          <FormFooter problem={problem} submitLabel={t('journeys.createSubmit')} cancelTo="/journeys" />
        </form>
      </FormProvider>
    </div>
  );
}
