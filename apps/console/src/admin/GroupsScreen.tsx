import { useTranslation } from 'react-i18next';
import { GroupInput, type Group } from '@corridor/contracts/groups';
import { TextField } from '../ui/form/fields';
import { CompanyField, GroupField } from '../ui/form/pickers';
import { useCompanies, useGroups } from '../ui/lookups';
import { groupsApi } from './resource-apis';
import { ResourceForm, ResourceScreen } from './ResourceScreen';

/** Device groups (Traccar's): a name, a parent group and an owning company; reports and rules choose devices by them. */
export default function GroupsScreen() {
  const { t } = useTranslation();
  const companies = useCompanies();
  const groups = useGroups();
  return (
    <ResourceScreen<Group>
      title={t('groups.title')}
      intro={t('groups.intro')}
      api={groupsApi}
      addLabel={t('groups.add')}
      nameOf={(g) => g.name}
      confirmDelete={(g) => t('groups.confirmDelete', { name: g.name })}
      empty={{ title: t('groups.empty'), hint: t('groups.emptyHint') }}
      columns={[
        { key: 'name', header: t('devices.name'), cell: (g) => g.name },
        {
          key: 'parent',
          header: t('groups.parent'),
          cell: (g) => (g.groupId ? (groups.byId.get(g.groupId)?.name ?? `#${g.groupId}`) : '—'),
        },
        { key: 'company', header: t('journeys.company'), cell: (g) => (g.companyId ? companies.name(g.companyId) : t('resources.shared')) },
      ]}
      form={(g, done) => {
        const labels = { name: t('devices.name'), groupId: t('groups.parent'), companyId: t('journeys.company') };
        return (
          <ResourceForm
            schema={GroupInput}
            api={groupsApi}
            item={g}
            title={g ? t('resources.editOne', { name: g.name }) : t('groups.add')}
            labels={labels}
            onDone={done}
            defaults={{
              name: g?.name ?? '',
              groupId: g?.groupId || null,
              companyId: g?.companyId ?? null,
              attributes: g?.attributes ?? {},
            }}
          >
            <TextField name="name" label={labels.name} required maxLength={128} />
            <GroupField name="groupId" label={labels.groupId} empty={t('groups.noParent')} />
            <CompanyField name="companyId" label={labels.companyId} empty={t('resources.shared')} />
          </ResourceForm>
        );
      }}
    />
  );
}
