import { useTranslation } from 'react-i18next';
import { DriverInput, type DriverEntity } from '@corridor/contracts/drivers';
import { TextField } from '../ui/form/fields';
import { CompanyField } from '../ui/form/pickers';
import { useCompanies } from '../ui/lookups';
import { driversApi } from './resource-apis';
import { ResourceForm, ResourceScreen } from './ResourceScreen';

/** Drivers (Traccar's): a name and the card or tag id trackers report as driverUniqueId, with the owning company. */
export default function DriversScreen() {
  const { t } = useTranslation();
  const companies = useCompanies();
  return (
    <ResourceScreen<DriverEntity>
      title={t('drivers.title')}
      intro={t('drivers.intro')}
      api={driversApi}
      addLabel={t('drivers.add')}
      nameOf={(d) => d.name}
      confirmDelete={(d) => t('drivers.confirmDelete', { name: d.name })}
      empty={{ title: t('drivers.empty'), hint: t('drivers.emptyHint') }}
      columns={[
        { key: 'name', header: t('devices.name'), cell: (d) => d.name },
        { key: 'uniqueId', header: t('drivers.uniqueId'), cell: (d) => <span className="mono">{d.uniqueId}</span> },
        { key: 'company', header: t('journeys.company'), cell: (d) => (d.companyId ? companies.name(d.companyId) : t('resources.shared')) },
      ]}
      form={(d, done) => {
        const labels = { name: t('devices.name'), uniqueId: t('drivers.uniqueId'), companyId: t('journeys.company') };
        return (
          <ResourceForm
            schema={DriverInput}
            api={driversApi}
            item={d}
            title={d ? t('resources.editOne', { name: d.name }) : t('drivers.add')}
            labels={labels}
            onDone={done}
            defaults={{
              name: d?.name ?? '',
              uniqueId: d?.uniqueId ?? '',
              companyId: d?.companyId ?? null,
              attributes: d?.attributes ?? {},
            }}
          >
            <TextField name="name" label={labels.name} required maxLength={128} />
            <TextField name="uniqueId" label={labels.uniqueId} hint={t('drivers.uniqueIdHint')} required maxLength={64} />
            <CompanyField name="companyId" label={labels.companyId} empty={t('resources.shared')} />
          </ResourceForm>
        );
      }}
    />
  );
}
