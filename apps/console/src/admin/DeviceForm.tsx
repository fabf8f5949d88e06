import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DeviceInput, devicesEndpoints, devicesExtraEndpoints, type Device } from '@corridor/contracts/devices';
import { knotsFrom, metresFrom } from '@corridor/contracts/preferences';
import { endpoint } from '../api/endpoint';
import { useApiMutation } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { TextField } from '../ui/form/fields';
import { FormFooter } from '../ui/form/FormFooter';
import { CompanyField, GroupField } from '../ui/form/pickers';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';

const create = endpoint(devicesEndpoints, 'devices.create');
const update = endpoint(devicesEndpoints, 'devices.update');
const accumulators = endpoint(devicesExtraEndpoints, 'devices.accumulators');

/** The form's values: the contract's DeviceInput fields a person edits, and the speed limit in the user's unit. */
const Form = DeviceInput.pick({ name: true, uniqueId: true, companyId: true, groupId: true }).extend({
  model: z.string().max(64),
  phone: z.string().max(32),
  speedLimit: z.number().positive().max(1000).optional(),
});
type FormValues = z.output<typeof Form>;
/** The API's paths that are another field of the form (a refusal of attributes.speedLimit goes under the speed limit). */
const ALIASES = { 'attributes.speedLimit': 'speedLimit' } as const;

/** Two decimals at most: a unit's conversion shown without its noise (80 km/h, not 80.00000000001). */
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A device, new or edited, checked by the contract's DeviceInput before it is sent: name, tracker
 * id, company, group, model, SIM number and speed limit (Traccar's speedLimit attribute, in knots
 * on the API, in the user's unit here). An edited device keeps every field the form does not show.
 * Editing also sets the odometer and engine hours (PUT /devices/{id}/accumulators).
 */
export function DeviceForm({ device, onDone }: { device: Device | null; onDone(): void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const add = useApiMutation(create, { invalidates: ['devices.'] });
  const change = useApiMutation(update, { invalidates: ['devices.'] });
  const [error, setError] = useState<unknown>(null);
  const limit = typeof device?.attributes.speedLimit === 'number' ? round2(f.speedValue(device.attributes.speedLimit)) : undefined;
  const form = useZodForm(Form, {
    defaultValues: {
      name: device?.name ?? '',
      uniqueId: device?.uniqueId ?? '',
      companyId: device?.companyId ?? null,
      groupId: device?.groupId || null,
      model: device?.model ?? '',
      phone: device?.phone ?? '',
      speedLimit: limit,
    },
  });
  const labels = {
    name: t('devices.name'),
    uniqueId: t('map.uniqueId'),
    companyId: t('journeys.company'),
    groupId: t('deviceEdit.group'),
    model: t('devices.model'),
    phone: t('devices.phone'),
    speedLimit: t('deviceEdit.speedLimit', { unit: f.units.speedSymbol }),
  };
  const problem = useServerProblems(form, error, labels, ALIASES);
  const onSubmit = form.handleSubmit(async ({ speedLimit, ...v }: FormValues) => {
    setError(null);
    const attributes: Record<string, unknown> = { ...(device?.attributes ?? {}) };
    if (speedLimit === undefined) delete attributes.speedLimit;
    else attributes.speedLimit = knotsFrom(speedLimit, f.units.speed);
    const body = {
      ...(device
        ? {
            disabled: device.disabled,
            calendarId: device.calendarId,
            contact: device.contact,
            category: device.category,
            expirationTime: device.expirationTime,
          }
        : { category: 'truck' }),
      name: v.name.trim(),
      uniqueId: v.uniqueId.trim(),
      companyId: v.companyId,
      groupId: v.groupId,
      model: v.model.trim() || null,
      phone: v.phone.trim() || null,
      attributes,
    };
    try {
      if (device) await change.mutateAsync({ params: { id: device.id }, body: body as never });
      else await add.mutateAsync({ body: body as never });
      onDone();
    } catch (e) {
      setError(e);
    }
  });
  const title = device ? t('deviceEdit.editTitle', { name: device.name }) : t('devices.register');
  return (
    <div className="card">
      <FormProvider {...form}>
        <form onSubmit={(e) => void onSubmit(e)} aria-label={title} noValidate>
          <h2>{title}</h2>
          <div className="form-grid">
            <TextField name="name" label={labels.name} required maxLength={128} />
            <TextField name="uniqueId" label={labels.uniqueId} hint={t('devices.uniqueIdHint')} required maxLength={64} />
            <CompanyField name="companyId" label={labels.companyId} />
            <GroupField name="groupId" label={labels.groupId} empty={t('deviceEdit.noGroup')} />
            <TextField name="model" label={labels.model} maxLength={64} placeholder="Teltonika FMB920" />
            <TextField name="phone" label={labels.phone} maxLength={32} type="tel" />
            <TextField
              name="speedLimit"
              label={labels.speedLimit}
              hint={t('deviceEdit.speedLimitHint')}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              valueAsNumber
            />
          </div>
          <FormFooter problem={problem} submitLabel={t('common.save')} busyLabel={t('common.saving')} onCancel={onDone} />
        </form>
      </FormProvider>
      {device && <CountersForm device={device} />}
    </div>
  );
}

const Counters = z
  .object({ odometer: z.number().min(0).max(1e9).optional(), hours: z.number().min(0).max(1e7).optional() })
  .refine((c) => c.odometer !== undefined || c.hours !== undefined, { path: ['odometer'], message: 'one of them' });

/** The odometer (in the user's distance unit) and engine hours as of now: Traccar's accumulators. */
function CountersForm({ device }: { device: Device }) {
  const { t } = useTranslation();
  const f = useFormat();
  const set = useApiMutation(accumulators, { invalidates: ['devices.'] });
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const form = useZodForm(Counters, { defaultValues: {}, refinements: { odometer: t('deviceEdit.countersNeeded') } });
  const labels = { odometer: t('deviceEdit.odometer', { unit: f.units.distanceSymbol }), hours: t('deviceEdit.engineHours') };
  const problem = useServerProblems(form, error, labels, { totalDistance: 'odometer' });
  const onSubmit = form.handleSubmit(async ({ odometer, hours }) => {
    setError(null);
    setSaved(false);
    try {
      await set.mutateAsync({
        params: { id: device.id },
        body: {
          deviceId: device.id,
          ...(odometer !== undefined ? { totalDistance: Math.round(metresFrom(odometer, f.units.distance)) } : {}),
          ...(hours !== undefined ? { hours: Math.round(hours * 3_600_000) } : {}),
        },
      });
      setSaved(true);
    } catch (e) {
      setError(e);
    }
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void onSubmit(e)} aria-label={t('deviceEdit.counters')} noValidate className="mt">
        <h3>{t('deviceEdit.counters')}</h3>
        <p className="muted small">{t('deviceEdit.countersHint')}</p>
        <div className="form-grid">
          <TextField name="odometer" label={labels.odometer} type="number" inputMode="decimal" min={0} step="any" valueAsNumber />
          <TextField name="hours" label={labels.hours} type="number" inputMode="decimal" min={0} step="any" valueAsNumber />
        </div>
        <FormFooter
          problem={problem}
          done={saved && t('deviceEdit.countersSaved')}
          submitLabel={t('deviceEdit.setCounters')}
          tone="plain"
        />
      </form>
    </FormProvider>
  );
}
