import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyInput, CompanyKind, CountryCode, companiesEndpoints, type Company } from '@corridor/contracts/companies';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import type { Column } from '../ui/DataTable';
import { SelectField, TextField } from '../ui/form/fields';
import { FormAlert } from '../ui/form/FormAlert';
import { FormCard, useSending } from '../ui/form/FormCard';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';
import { ChoiceFilter, SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { searchText, usePagedFilters } from '../ui/list/usePagedFilters';
import { companiesList } from '../ui/lookups';

const LIMIT = 50;
const create = endpoint(companiesEndpoints, 'companies.create');
const update = endpoint(companiesEndpoints, 'companies.update');

/** The companies registered on the platform, by country and kind, with their registry numbers; the administrator registers and corrects them. */
export default function CompaniesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const list = usePagedFilters({ country: '' as CountryCode | '', kind: '' as CompanyKind | '', name: '' }, LIMIT);
  const { country, kind, name } = list.filters;
  const q = useApiQuery(companiesList, {
    query: { limit: list.limit, offset: list.offset, country: country || undefined, kind: kind || undefined, q: searchText(name) },
  });
  // the form open: a new company (null) or one being corrected
  const [editing, setEditing] = useState<Company | null | undefined>(undefined);
  const [saved, setSaved] = useState<string | null>(null);
  const columns: Column<Company>[] = [
    { key: 'name', header: t('devices.name'), cell: (c) => c.name },
    { key: 'kind', header: t('companies.kind'), cell: (c) => t(`companies.kinds.${c.kind}`) },
    { key: 'country', header: t('geofences.country'), cell: (c) => c.country },
    { key: 'reg', header: t('companies.registration'), cell: (c) => <span className="mono">{c.registrationNumber ?? '—'}</span> },
    { key: 'tax', header: t('companies.tax'), cell: (c) => <span className="mono">{c.taxPin ?? '—'}</span> },
    { key: 'since', header: t('companies.since'), cell: (c) => f.date(c.createdAt) },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: (c) => (
        <button
          type="button"
          className="btn btn-small"
          aria-label={t('companies.edit', { name: c.name })}
          onClick={() => (setSaved(null), setEditing(c))}
        >
          {t('common.edit')}
        </button>
      ),
    },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('companies.title')}</h1>
        <button type="button" className="btn btn-primary" onClick={() => (setSaved(null), setEditing(null))} disabled={editing === null}>
          {t('companies.add')}
        </button>
      </div>
      {editing !== undefined && (
        <CompanyForm
          key={editing?.id ?? 'new'}
          company={editing}
          onCancel={() => setEditing(undefined)}
          onSaved={(c) => {
            setEditing(undefined);
            setSaved(t('companies.saved', { name: c.name }));
          }}
        />
      )}
      <FormAlert message={null} done={saved} />
      <div className="filters">
        <SearchFilter value={name} onChange={(v) => list.set('name', v)} />
        <ChoiceFilter
          label={t('geofences.country')}
          value={country}
          options={CountryCode.options}
          onChange={(v) => list.set('country', v)}
        />
        <ChoiceFilter
          label={t('companies.kind')}
          value={kind}
          options={CompanyKind.options}
          optionLabel={(o) => t(`companies.kinds.${o}`)}
          onChange={(v) => list.set('kind', v)}
        />
      </div>
      <PagedTable
        caption={t('companies.title')}
        columns={columns}
        query={q}
        list={list}
        rowKey={(c) => c.id}
        empty={{ title: t('companies.empty'), hint: t('common.clearFilters') }}
      />
    </div>
  );
}

/** A company, new or corrected, checked by the contract's CompanyInput before it is sent. */
function CompanyForm({ company, onSaved, onCancel }: { company: Company | null; onSaved(c: Company): void; onCancel(): void }) {
  const { t, i18n } = useTranslation();
  const add = useApiMutation(create, { invalidates: ['companies.'] });
  const change = useApiMutation(update, { invalidates: ['companies.'] });
  const form = useZodForm(CompanyInput, {
    defaultValues: {
      name: company?.name ?? '',
      country: company?.country,
      kind: company?.kind,
      registrationNumber: company?.registrationNumber ?? '',
      taxPin: company?.taxPin ?? '',
    },
  });
  const labels = {
    name: t('devices.name'),
    country: t('companies.country'),
    kind: t('companies.kind'),
    registrationNumber: t('companies.registration'),
    taxPin: t('companies.tax'),
  };
  const { submit, error } = useSending(form.handleSubmit, async (v: CompanyInput) =>
    onSaved(company ? await change.mutateAsync({ params: { id: company.id }, body: v }) : await add.mutateAsync({ body: v })),
  );
  const problem = useServerProblems(form, error, labels);
  const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
  return (
    <FormCard
      form={form}
      title={company ? t('companies.edit', { name: company.name }) : t('companies.add')}
      onSubmit={submit}
      onCancel={onCancel}
      problem={problem}
    >
      <div className="form-grid">
        <TextField name="name" label={labels.name} required maxLength={200} />
        <SelectField
          name="country"
          label={labels.country}
          required
          empty={t('common.choose')}
          options={CountryCode.options.map((c) => ({ value: c, label: `${names.of(c) ?? c} (${c})` }))}
        />
        <SelectField
          name="kind"
          label={labels.kind}
          required
          empty={t('common.choose')}
          options={CompanyKind.options.map((k) => ({ value: k, label: t(`companies.kinds.${k}`) }))}
        />
        <TextField
          name="registrationNumber"
          label={labels.registrationNumber}
          hint={t('companies.registrationHint')}
          maxLength={64}
          className="mono"
        />
        <TextField name="taxPin" label={labels.taxPin} hint={t('companies.taxHint')} maxLength={32} className="mono" />
      </div>
    </FormCard>
  );
}
