import { useTranslation } from 'react-i18next';
import { ComputedAttributeInput, ComputedAttributeType, type ComputedAttribute } from '@corridor/contracts/computed-attributes';
import { SelectField, TextAreaField, TextField } from '../ui/form/fields';
import { CompanyField } from '../ui/form/pickers';
import { useCompanies } from '../ui/lookups';
import { computedApi } from './resource-apis';
import { ResourceForm, ResourceScreen } from './ResourceScreen';

/** Computed attributes (Traccar's): an expression evaluated on each position and stored under an attribute name. */
export default function ComputedAttributesScreen() {
  const { t } = useTranslation();
  const companies = useCompanies();
  return (
    <ResourceScreen<ComputedAttribute>
      title={t('computed.title')}
      intro={t('computed.intro')}
      api={computedApi}
      addLabel={t('computed.add')}
      nameOf={(c) => c.description}
      confirmDelete={(c) => t('computed.confirmDelete', { name: c.description })}
      empty={{ title: t('computed.empty'), hint: t('computed.emptyHint') }}
      columns={[
        { key: 'description', header: t('computed.description'), cell: (c) => c.description },
        { key: 'attribute', header: t('computed.attribute'), cell: (c) => <span className="mono">{c.attribute}</span> },
        { key: 'expression', header: t('computed.expression'), cell: (c) => <code>{c.expression}</code> },
        { key: 'type', header: t('computed.type'), cell: (c) => t(`computed.types.${c.type}`) },
        { key: 'priority', header: t('computed.priority'), numeric: true, cell: (c) => c.priority },
        { key: 'company', header: t('journeys.company'), cell: (c) => (c.companyId ? companies.name(c.companyId) : t('resources.shared')) },
      ]}
      form={(c, done) => {
        const labels = {
          description: t('computed.description'),
          attribute: t('computed.attribute'),
          expression: t('computed.expression'),
          type: t('computed.type'),
          priority: t('computed.priority'),
          companyId: t('journeys.company'),
        };
        return (
          <ResourceForm
            schema={ComputedAttributeInput}
            api={computedApi}
            item={c}
            title={c ? t('resources.editOne', { name: c.description }) : t('computed.add')}
            labels={labels}
            onDone={done}
            defaults={{
              description: c?.description ?? '',
              attribute: c?.attribute ?? '',
              expression: c?.expression ?? '',
              type: c?.type ?? 'Number',
              priority: c?.priority ?? 0,
              companyId: c?.companyId ?? null,
            }}
          >
            <TextField name="description" label={labels.description} required maxLength={256} />
            <TextField
              name="attribute"
              label={labels.attribute}
              hint={t('computed.attributeHint')}
              required
              maxLength={64}
              className="mono"
            />
            <SelectField
              name="type"
              label={labels.type}
              options={ComputedAttributeType.options.map((o) => ({ value: o, label: t(`computed.types.${o}`) }))}
            />
            <TextField name="priority" label={labels.priority} hint={t('computed.priorityHint')} type="number" step={1} valueAsNumber />
            <CompanyField name="companyId" label={labels.companyId} empty={t('resources.shared')} />
            <TextAreaField
              name="expression"
              label={labels.expression}
              hint={t('computed.expressionHint')}
              required
              rows={3}
              maxLength={1000}
              className="span-all"
            />
          </ResourceForm>
        );
      }}
    />
  );
}
