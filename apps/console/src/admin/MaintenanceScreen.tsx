import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MaintenanceInput, type Maintenance } from '@corridor/contracts/maintenance';
import { metresFrom } from '@corridor/contracts/preferences';
import { useFormat } from '../i18n/format';
import { SelectField, TextField } from '../ui/form/fields';
import { CompanyField } from '../ui/form/pickers';
import { useCompanies } from '../ui/lookups';
import { maintenanceApi } from './resource-apis';
import { ResourceForm, ResourceScreen } from './ResourceScreen';

/** The values a maintenance watches as people know them: distance in the user's unit, engine hours in hours. */
const KNOWN = ['totalDistance', 'odometer', 'hours'] as const;
const HOUR_MS = 3_600_000;
/** Two decimals at most: a unit's conversion shown without its noise. */
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Maintenance (Traccar's): what is watched (distance driven, the odometer, engine hours or another
 * position value), when it is first due and how often after that, shown and entered in the user's
 * units (the API keeps metres and milliseconds).
 */
export default function MaintenanceScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const unitOf = (type: string) =>
    type === 'hours' ? t('maintenance.hoursUnit') : type === 'totalDistance' || type === 'odometer' ? f.units.distanceSymbol : '';
  /** The API's value (metres, milliseconds, the attribute's own) in the unit shown. */
  const shown = (type: string, v: number) =>
    round2(type === 'hours' ? v / HOUR_MS : type === 'totalDistance' || type === 'odometer' ? f.distanceValue(v) : v);
  const stored = (type: string, v: number) =>
    type === 'hours' ? v * HOUR_MS : type === 'totalDistance' || type === 'odometer' ? metresFrom(v, f.units.distance) : v;
  const typeName = (type: string) =>
    (KNOWN as readonly string[]).includes(type) ? t(`maintenance.types.${type as (typeof KNOWN)[number]}`) : type;
  return (
    <ResourceScreen<Maintenance>
      title={t('maintenance.title')}
      intro={t('maintenance.intro')}
      api={maintenanceApi}
      addLabel={t('maintenance.add')}
      nameOf={(m) => m.name}
      confirmDelete={(m) => t('maintenance.confirmDelete', { name: m.name })}
      empty={{ title: t('maintenance.empty'), hint: t('maintenance.emptyHint') }}
      columns={[
        { key: 'name', header: t('devices.name'), cell: (m) => m.name },
        { key: 'type', header: t('maintenance.type'), cell: (m) => typeName(m.type) },
        {
          key: 'start',
          header: t('maintenance.start'),
          numeric: true,
          cell: (m) => `${f.number(shown(m.type, m.start), 2)} ${unitOf(m.type)}`.trim(),
        },
        {
          key: 'period',
          header: t('maintenance.period'),
          numeric: true,
          cell: (m) => `${f.number(shown(m.type, m.period), 2)} ${unitOf(m.type)}`.trim(),
        },
        { key: 'company', header: t('journeys.company'), cell: (m) => (m.companyId ? companies.name(m.companyId) : t('resources.shared')) },
      ]}
      form={(m, done) => {
        const type = m?.type ?? 'totalDistance';
        const labels = {
          name: t('devices.name'),
          type: t('maintenance.type'),
          start: t('maintenance.startIn', { unit: unitOf(type) || '—' }),
          period: t('maintenance.periodIn', { unit: unitOf(type) || '—' }),
          companyId: t('journeys.company'),
        };
        const types = [...new Set([...KNOWN, type])].map((k) => ({ value: k, label: typeName(k) }));
        return (
          <ResourceForm
            schema={MaintenanceInput}
            api={maintenanceApi}
            item={m}
            title={m ? t('resources.editOne', { name: m.name }) : t('maintenance.add')}
            labels={labels}
            onDone={done}
            defaults={{
              name: m?.name ?? '',
              type,
              start: m ? shown(m.type, m.start) : 0,
              period: m ? shown(m.type, m.period) : undefined,
              companyId: m?.companyId ?? null,
              attributes: m?.attributes ?? {},
            }}
            toBody={(v) => ({ ...v, start: stored(v.type, v.start), period: stored(v.type, v.period) })}
          >
            <MaintenanceFields types={types} unitOf={unitOf} />
          </ResourceForm>
        );
      }}
    />
  );
}

/** The form's fields: the start and period labelled in the unit of the value chosen to watch. */
function MaintenanceFields({ types, unitOf }: { types: { value: string; label: string }[]; unitOf(type: string): string }) {
  const { t } = useTranslation();
  const unit = unitOf(String(useFormContext().watch('type') ?? '')) || '—';
  return (
    <>
      <TextField name="name" label={t('devices.name')} required maxLength={128} />
      <SelectField name="type" label={t('maintenance.type')} options={types} hint={t('maintenance.typeHint')} />
      <TextField
        name="start"
        label={t('maintenance.startIn', { unit })}
        hint={t('maintenance.startHint')}
        type="number"
        min={0}
        step="any"
        valueAsNumber
        required
      />
      <TextField
        name="period"
        label={t('maintenance.periodIn', { unit })}
        hint={t('maintenance.periodHint')}
        type="number"
        min={0}
        step="any"
        valueAsNumber
        required
      />
      <CompanyField name="companyId" label={t('journeys.company')} empty={t('resources.shared')} />
    </>
  );
}
