import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormProvider } from 'react-hook-form';
import type { Device } from '@corridor/contracts/devices';
import { PositionsExportQuery } from '@corridor/contracts/positions-api';
import { useFleetDevices } from '../../live/queries';
import { DateTimeField, SelectField } from '../../ui/form/fields';
import { useZodForm } from '../../ui/form/useZodForm';
import { ErrorState, Loading } from '../../ui/states';
import { ReplayView } from './ReplayView';
import { useReplayData } from './useReplayData';

/** Quick periods ending now, hours. */
const PRESETS = [1, 6, 24, 72] as const;
const HOUR = 3_600_000;
const lastHours = (h: number) => {
  const to = new Date();
  return { from: new Date(to.getTime() - h * HOUR).toISOString(), to: to.toISOString() };
};

/**
 * A device's replay: which truck and when (in the address, so a replay can be shared and reopened),
 * then its track played back. The form is checked by the positions export's own query schema.
 */
export default function ReplayScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const deviceId = Number(params.get('device')) || null;
  const from = params.get('from');
  const to = params.get('to');
  const chosen = deviceId && from && to ? { deviceId, from, to } : null;
  const devices = useFleetDevices();
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('replay.title')}</h1>
      </div>
      {/* the form starts once the trucks are known, so that the truck named in the address is the one chosen */}
      {devices.isPending ? (
        <Loading />
      ) : (
        <ReplayForm
          key={params.toString()}
          devices={devices.data ?? []}
          initial={{ deviceId, ...(from && to ? { from, to } : lastHours(1)) }}
          onSubmit={(v) => setParams({ device: String(v.deviceId), from: v.from, to: v.to })}
        />
      )}
      {chosen ? <DeviceReplay {...chosen} /> : <p className="muted">{t('replay.chooseHint')}</p>}
    </div>
  );
}

const ReplayQuery = PositionsExportQuery.pick({ deviceId: true, from: true, to: true });
type Query = { deviceId: number; from: string; to: string };

function ReplayForm({
  devices,
  initial,
  onSubmit,
}: {
  devices: readonly Device[];
  initial: { deviceId: number | null; from: string; to: string };
  onSubmit(v: Query): void;
}) {
  const { t } = useTranslation();
  const schema = useMemo(
    () => ReplayQuery.refine((q) => Date.parse(q.from) < Date.parse(q.to), { path: ['to'], message: t('replay.toAfterFrom') }),
    [t],
  );
  const form = useZodForm(schema, { defaultValues: { deviceId: initial.deviceId ?? undefined, from: initial.from, to: initial.to } });
  const options = useMemo(
    () => devices.map((d) => ({ value: d.id, label: d.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [devices],
  );
  const preset = (h: number) => {
    const p = lastHours(h);
    form.setValue('from', p.from, { shouldValidate: true });
    form.setValue('to', p.to, { shouldValidate: true });
  };
  return (
    <FormProvider {...form}>
      <form
        className="card replay-form"
        aria-label={t('replay.choose')}
        onSubmit={form.handleSubmit((v) => onSubmit(v as Query))}
        noValidate
      >
        <SelectField name="deviceId" label={t('replay.device')} options={options} numeric empty={t('common.choose')} required />
        <DateTimeField name="from" label={t('common.from')} required />
        <DateTimeField name="to" label={t('common.to')} required />
        <span className="toolbar replay-presets" role="group" aria-label={t('replay.quickPeriods')}>
          {PRESETS.map((h) => (
            <button key={h} type="button" className="btn btn-small" onClick={() => preset(h)}>
              {t('replay.lastHours', { count: h })}
            </button>
          ))}
        </span>
        <button type="submit" className="btn btn-primary" data-testid="replay-show">
          {t('replay.show')}
        </button>
      </form>
    </FormProvider>
  );
}

function DeviceReplay({ deviceId, from, to }: Query) {
  const { t } = useTranslation();
  const data = useReplayData(deviceId, from, to);
  if (data.isPending) return <Loading label={t('replay.loading')} />;
  if (data.error || !data.track) return <ErrorState error={data.error} retry={data.refetch} />;
  return (
    <>
      {data.truncated && <p className="form-note">{t('replay.truncated')}</p>}
      {data.partial && <p className="form-note">{t('replay.partial')}</p>}
      <ReplayView track={data.track} marks={data.marks} deviceId={deviceId} from={from} to={to} />
    </>
  );
}
